/**
 * Whether the built app (out/main/cli.js) is older than what it is built from: the sources,
 * and the files that say how they are built (a changed build config, zod bundled or not, say,
 * gives another app from the same sources).
 */
const fs = require('node:fs');
const path = require('node:path');

const SOURCE_DIRS = ['electron', 'shared', 'renderer'];
const BUILD_FILES = ['electron.vite.config.ts', 'package.json'];

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

function mtimeOf(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** True when `built` (a file of the build) is older than a source or a build file under `root`. */
function olderThanSources(root, built) {
  const builtAt = fs.statSync(built).mtimeMs;
  return (
    SOURCE_DIRS.some((dir) => newestMtime(path.join(root, dir)) > builtAt) ||
    BUILD_FILES.some((file) => mtimeOf(path.join(root, file)) > builtAt)
  );
}

module.exports = { olderThanSources };
