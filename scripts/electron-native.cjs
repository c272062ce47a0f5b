#!/usr/bin/env node
/**
 * Builds better-sqlite3 for Electron's ABI into .electron-native/, from a private copy of the
 * package, so the Node build in node_modules (used by tests, the CLI and the browser host) is
 * never touched. Cached per Electron and better-sqlite3 version, and checked: the result must
 * export Electron's NODE_MODULE_VERSION, not Node's.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, '.electron-native');
const electronVersion = require(
  path.join(root, 'node_modules', 'electron', 'package.json'),
).version;
const electronAbi = fs
  .readFileSync(path.join(root, 'node_modules', 'electron', 'abi_version'), 'utf8')
  .trim();
const sqliteDir = path.join(root, 'node_modules', 'better-sqlite3');
const sqliteVersion = require(path.join(sqliteDir, 'package.json')).version;
const stamp = path.join(outDir, 'stamp.json');
const binding = path.join(outDir, 'better_sqlite3.node');
const wanted = JSON.stringify({ electronVersion, sqliteVersion });

function builtAbi(file) {
  return /node_register_module_v(\d+)/.exec(fs.readFileSync(file).toString('latin1'))?.[1] ?? null;
}

if (
  fs.existsSync(binding) &&
  fs.existsSync(stamp) &&
  fs.readFileSync(stamp, 'utf8') === wanted &&
  builtAbi(binding) === electronAbi
) {
  process.exit(0);
}

const work = path.join(outDir, 'src');
const fail = (reason) => {
  fs.rmSync(work, { recursive: true, force: true });
  process.stderr.write(
    `Could not build better-sqlite3 ${sqliteVersion} for Electron ${electronVersion}: ${reason}\n`,
  );
  process.exit(1);
};

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
fs.cpSync(sqliteDir, work, {
  recursive: true,
  filter: (src) => !src.includes(`${path.sep}build${path.sep}`),
});
const gyp = require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] });
// npm passes its own nodedir (here /usr) down; node-gyp would then quietly build for Node's ABI.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^npm_config_(nodedir|target|runtime|disturl)$/i.test(key),
  ),
);
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
  { cwd: work, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
);
if (result.status !== 0) {
  const text = result.stderr || '';
  const network =
    /network connectivity|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|getaddrinfo/.test(text);
  const firstError = text.split('\n').find((l) => /gyp ERR! stack Error/.test(l));
  fail(
    network
      ? "Electron's headers could not be downloaded (no network route to electronjs.org/headers)."
      : (firstError?.replace(/^gyp ERR! stack\s*/, '').trim() ??
          'node-gyp failed; run it by hand to see why.'),
  );
}
const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
const abi = builtAbi(built);
if (abi !== electronAbi)
  fail(
    `the build targets NODE_MODULE_VERSION ${abi}, but Electron ${electronVersion} needs ${electronAbi}.`,
  );
fs.copyFileSync(built, binding);
fs.writeFileSync(stamp, wanted);
fs.rmSync(work, { recursive: true, force: true });
