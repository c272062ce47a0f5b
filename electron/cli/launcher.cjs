#!/usr/bin/env node
/**
 * The `pairwise` bin. It runs the built CLI (out/main/cli.js) and builds it first when the
 * build is missing or older than the sources, so `npx pairwise` works straight after
 * `npm install` in a clone. `--build-only` is what `npm install` (prepare) calls.
 */
const fs = require('node:fs');
const path = require('node:path');
const { runElectronVite } = require('./electron-vite.cjs');

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'out', 'main', 'cli.js');
const sourceDirs = ['electron', 'shared', 'renderer'].map((d) => path.join(root, d));

function newestMtime(dir) {
  let newest = 0;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (/\.(ts|tsx|css|html)$/.test(entry.name))
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function canBuild() {
  return (
    fs.existsSync(path.join(root, 'node_modules', 'electron-vite')) &&
    fs.existsSync(path.join(root, 'electron.vite.config.ts'))
  );
}

function needsBuild() {
  if (!fs.existsSync(cli)) return true;
  if (!canBuild()) return false;
  const built = fs.statSync(cli).mtimeMs;
  return sourceDirs.some((dir) => newestMtime(dir) > built);
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
