import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../fixtures/tmp';

const { olderThanSources } = createRequire(__filename)(
  '../../../electron/cli/build-staleness.cjs',
) as { olderThanSources(root: string, built: string): boolean };

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** A project with sources and build files at `at`, and its built CLI at `builtAt`. */
function project(at: number, builtAt: number): { root: string; built: string } {
  const { dir: root, cleanup } = tempDir('pairwise-staleness-');
  cleanups.push(cleanup);
  const write = (file: string, mtime: number) => {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, '');
    fs.utimesSync(full, mtime, mtime);
  };
  for (const file of [
    'electron/core/service.ts',
    'shared/model.ts',
    'renderer/index.html',
    'electron.vite.config.ts',
    'package.json',
  ])
    write(file, at);
  write('out/main/cli.js', builtAt);
  return { root, built: path.join(root, 'out/main/cli.js') };
}

const touch = (root: string, file: string, mtime: number) =>
  fs.utimesSync(path.join(root, file), mtime, mtime);

describe('whether the built app is stale', () => {
  it('is not when the build is newer than every source and build file', () => {
    const { root, built } = project(1_000, 2_000);
    expect(olderThanSources(root, built)).toBe(false);
  });

  it('is when a source file changed after the build', () => {
    const { root, built } = project(1_000, 2_000);
    touch(root, 'shared/model.ts', 3_000);
    expect(olderThanSources(root, built)).toBe(true);
  });

  it('is when the build config or package.json changed after the build, the sources not', () => {
    for (const file of ['electron.vite.config.ts', 'package.json']) {
      const { root, built } = project(1_000, 2_000);
      touch(root, file, 3_000);
      expect(olderThanSources(root, built)).toBe(true);
    }
  });
});
