#!/usr/bin/env node
/**
 * The `pairwise` bin. It runs the built CLI (out/main/cli.js) and builds it first when the
 * build is missing or older than the sources, so `npx pairwise` works straight after
 * `npm install` in a clone. `--build-only` is what `npm install` (prepare) calls.
 */
const fs = require('node:fs');
const path = require('node:path');
const { olderThanSources } = require('./build-staleness.cjs');
const { runElectronVite } = require('./electron-vite.cjs');

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'out', 'main', 'cli.js');

function canBuild() {
  return (
    fs.existsSync(path.join(root, 'node_modules', 'electron-vite')) &&
    fs.existsSync(path.join(root, 'electron.vite.config.ts'))
  );
}

function needsBuild() {
  if (!fs.existsSync(cli)) return true;
  if (!canBuild()) return false;
  return olderThanSources(root, cli);
}

function build() {
  process.stderr.write('pairwise: building the app (first run or sources changed)…\n');
  const result = runElectronVite(root, ['build'], ['ignore', 'ignore', 'inherit']);
  if (result.status !== 0) {
    process.stderr.write('pairwise: the build failed; run `npm run build` to see why.\n');
    process.exit(1);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--build-only') {
  if (canBuild() && needsBuild()) build();
  process.exit(0);
}
if (needsBuild()) {
  if (!canBuild()) {
    process.stderr.write(
      'pairwise: this copy has no build (out/main/cli.js) and no build tools; run `npm install` in the project.\n',
    );
    process.exit(1);
  }
  build();
}
process.env.PAIRWISE_CLI_MAIN = '1';
require(cli);
