#!/usr/bin/env node
/**
 * Builds better-sqlite3 for Electron's ABI into .electron-native/, from a private copy of the
 * package, so the Node build in node_modules (used by tests, the CLI and the browser host) is
 * never touched. Cached per Electron and better-sqlite3 version.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, '.electron-native');
const electronVersion = require(
  path.join(root, 'node_modules', 'electron', 'package.json'),
).version;
const sqliteDir = path.join(root, 'node_modules', 'better-sqlite3');
const sqliteVersion = require(path.join(sqliteDir, 'package.json')).version;
const stamp = path.join(outDir, 'stamp.json');
const binding = path.join(outDir, 'better_sqlite3.node');
const wanted = JSON.stringify({ electronVersion, sqliteVersion });

if (fs.existsSync(binding) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted)
  process.exit(0);

const work = path.join(outDir, 'src');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
fs.cpSync(sqliteDir, work, {
  recursive: true,
  filter: (src) => !src.includes(`${path.sep}build${path.sep}`),
});
const gyp = require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] });
process.stdout.write(`Building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion}…\n`);
const result = spawnSync(
  process.execPath,
  [
    gyp,
    'rebuild',
    '--release',
    `--target=${electronVersion}`,
    '--runtime=electron',
    '--dist-url=https://electronjs.org/headers',
  ],
  { cwd: work, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
);
if (result.status !== 0) {
  const reason = (result.stderr || '').split('\n').find((l) => /ERR!/.test(l)) ?? 'node-gyp failed';
  process.stderr.write(
    `Could not build better-sqlite3 for Electron ${electronVersion}: ${reason.trim()}\n`,
  );
  process.exit(1);
}
fs.copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), binding);
fs.writeFileSync(stamp, wanted);
fs.rmSync(work, { recursive: true, force: true });
