#!/usr/bin/env node
/**
 * `npm run package`: the installers this host can build, into dist/ (Linux: AppImage and deb,
 * macOS: dmg, Windows: nsis), for this machine's architecture. `npm run package:dir` (--dir):
 * only the unpacked app, the fastest check that packaging works.
 *
 * Steps: the Electron-ABI build of better-sqlite3 (scripts/electron-native.cjs, needs Electron's
 * headers), the app build (electron-vite), then electron-builder with electron-builder.yml
 * (needs Electron itself). The downloads come first so an offline machine fails fast, and a
 * failed download ends in one line naming what is missing, exit code 1, no stack trace.
 * docs/releasing.md describes the whole release.
 */
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { checkElectronSqlite } = require('./after-pack.cjs');
const { runElectronVite } = require('../electron/cli/electron-vite.cjs');

const root = path.resolve(__dirname, '..');
const dirOnly = process.argv.includes('--dir');
const electronVersion = require(
  path.join(root, 'node_modules', 'electron', 'package.json'),
).version;
// The dist-url electron-native.cjs gives node-gyp.
const headersUrl = `https://electronjs.org/headers/v${electronVersion}/SHASUMS256.txt`;

function stop(message) {
  process.stderr.write(`Pairwise: ${message}\n`);
  process.exit(1);
}

function firstLine(text) {
  return (
    String(text ?? '')
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? ''
  );
}

/** Why `url` cannot be fetched, or null when it can. */
async function unreachable(url) {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(15_000) });
    return response.ok ? null : `HTTP ${response.status}`;
  } catch (error) {
    return firstLine(error.cause?.message ?? error.message);
  }
}

async function buildElectronSqlite() {
  // A nodedir in the user's npm config (set for offline `npm install`s) reaches node-gyp through
  // npm run's environment and makes it build against Node's headers, not Electron's.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.toLowerCase() !== 'npm_config_nodedir'),
  );
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'electron-native.cjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status === 0) {
    try {
      checkElectronSqlite(path.join(root, '.electron-native'), electronVersion);
    } catch (error) {
      stop(`cannot package: ${error.message}`);
    }
    return;
  }
  // electron-native.cjs passes on node-gyp's first error line, which for a failed header
  // download is only "configure error"; asking the server tells a download from a compile error.
  const cause = await unreachable(headersUrl);
  if (cause) {
    stop(
      `cannot package here: Electron ${electronVersion}'s headers could not be downloaded (${cause}). ` +
        "Packaging needs network access to Electron's headers (electronjs.org/headers) and release downloads (github.com/electron/electron/releases).",
    );
  }
  stop(`cannot package: ${firstLine(result.stderr) || 'scripts/electron-native.cjs failed'}`);
}

function buildApp() {
  const result = runElectronVite(root, ['build']);
  if (result.status !== 0)
    stop('cannot package: the app build (electron-vite build) failed, see above.');
}

/** One line for an electron-builder failure; downloads are named by what they fetch. */
function describeBuilderFailure(error) {
  const url = error?.options?.url ? String(error.options.url) : null;
  const cause = firstLine(error?.message ?? error);
  if (!url) return `packaging failed: ${cause}`;
  if (url.includes(`electron-v${electronVersion}-`)) {
    return (
      `cannot package here: Electron ${electronVersion} could not be downloaded (${cause}). ` +
      "Packaging needs network access to Electron's release downloads (github.com/electron/electron/releases, or $ELECTRON_MIRROR)."
    );
  }
  return (
    `cannot package here: ${path.posix.basename(new URL(url).pathname)} could not be downloaded (${cause}). ` +
    `Packaging needs network access to ${new URL(url).host}.`
  );
}

async function runElectronBuilder() {
  const { build, Platform, archFromString } = require('electron-builder');
  try {
    const artifacts = await build({
      projectDir: root,
      targets: Platform.current().createTarget(
        dirOnly ? 'dir' : null,
        archFromString(process.arch),
      ),
      publish: 'never',
    });
    const made = artifacts.map((file) => path.relative(root, file)).join(', ');
    process.stdout.write(`Pairwise: packaged into dist/${made ? `: ${made}` : ''}\n`);
  } catch (error) {
    stop(describeBuilderFailure(error));
  }
}

async function main() {
  // deb.fpm in electron-builder.yml names resources/bin/pairwise relative to the project.
  process.chdir(root);
  await buildElectronSqlite();
  buildApp();
  await runElectronBuilder();
}

void main();
