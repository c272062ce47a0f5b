import fs from 'node:fs';
import path from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * Maps a URL path to a file inside `root`, or null. Decoding happens once, `..` segments,
 * NUL bytes and backslashes are refused, and the real path (after symlinks) must still be
 * inside the real root, so nothing outside the built renderer can be served.
 */
export function resolveStatic(
  root: string,
  urlPath: string,
): { file: string; type: string } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const relative = segments.length === 0 ? 'index.html' : segments.join('/');
  const realRoot = fs.realpathSync(root);
  const candidate = path.resolve(realRoot, relative);
  let real: string;
  try {
    real = fs.realpathSync(candidate);
  } catch {
    return null;
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
  if (!fs.statSync(real).isFile()) return null;
  return {
    file: real,
    type: types[path.extname(real).toLowerCase()] ?? 'application/octet-stream',
  };
}
