const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

/**
 * The project's own electron-vite, one definition for the CLI launcher, `npm start` and
 * packaging: on Windows the .bin entry is a .cmd that needs a shell.
 */
const windows = process.platform === 'win32';

function command(root) {
  return path.join(root, 'node_modules', '.bin', windows ? 'electron-vite.cmd' : 'electron-vite');
}

/** Runs `electron-vite ARGS` to the end. */
function runElectronVite(root, args, stdio = 'inherit') {
  return spawnSync(command(root), args, { cwd: root, stdio, shell: windows });
}

/** Starts `electron-vite ARGS` and returns the child (for `dev`, which keeps running). */
function spawnElectronVite(root, args, stdio = 'inherit') {
  return spawn(command(root), args, { cwd: root, stdio, shell: windows });
}

module.exports = { runElectronVite, spawnElectronVite };
