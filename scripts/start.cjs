#!/usr/bin/env node
/**
 * `npm start`: the desktop app through electron-vite dev when an Electron binary can be had;
 * otherwise one clear line and the browser host, so the app runs everywhere.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { spawnElectronVite } = require('../electron/cli/electron-vite.cjs');

const root = path.resolve(__dirname, '..');

function electronBinary() {
  try {
    const pathFile = path.join(root, 'node_modules', 'electron', 'path.txt');
    if (!fs.existsSync(pathFile)) return null;
    const binary = path.join(
      root,
      'node_modules',
      'electron',
      'dist',
      fs.readFileSync(pathFile, 'utf8').trim(),
    );
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Electron 45 fetches its binary lazily; try once, quietly, and report in one line. */
function ensureElectron() {
  if (electronBinary()) return { ok: true };
  const install = path.join(root, 'node_modules', 'electron', 'install.js');
  if (!fs.existsSync(install)) return { ok: false, why: 'the electron package is not installed' };
  const result = spawnSync(process.execPath, [install], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (electronBinary()) return { ok: true };
  const firstLine =
    `${result.stderr || result.stdout || ''}`.split('\n').find((l) => l.trim()) ??
    'no network route to its downloads';
  return { ok: false, why: firstLine.trim().slice(0, 160) };
}

function fallBackToBrowser(why) {
  process.stdout.write(
    `Pairwise: the Electron binary could not be downloaded (${why}); starting the browser host instead.\n`,
  );
  const args = [
    path.join(root, 'electron', 'cli', 'launcher.cjs'),
    'serve',
    ...(emptyLibrary() ? ['--demo'] : []),
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}

function emptyLibrary() {
  return !process.env.PAIRWISE_DB && !process.argv.includes('--db');
}

const electron = ensureElectron();
if (!electron.ok) {
  fallBackToBrowser(electron.why);
} else {
  const native = spawnSync(process.execPath, [path.join(root, 'scripts', 'electron-native.cjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (native.status !== 0) {
    fallBackToBrowser('the SQLite module could not be built for Electron');
  } else {
    const child = spawnElectronVite(root, ['dev']);
    child.on('exit', (code) => process.exit(code ?? 0));
  }
}
