/**
 * `npx tsx test/bench/index-speed.ts [--size pair100k,1gb,pair1m] [--trees DIR,DIR] [--rounds N] [--profile]`
 *
 * Indexing alone, for working on it: the JSON.parse baseline and service.index of the
 * benchmark's libraries (kept under the temp dir between calls), each in a fresh process. With
 * several --trees (checkouts of Pairwise, this one by default) the trees take turns within
 * each round, so that on a shared machine "before" and "after" see the same load. The index
 * workers run from each tree's TypeScript sources, so that trees without a build compare alike;
 * `npm run bench` runs them from the app's build (built-workers.ts), a few percent faster.
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { libraryFor, type LibrarySpec } from './generate';
import type { BaselineResult, IndexResult } from './phase-index';
import { SPECS } from './specs';

const sizes: Record<string, LibrarySpec> = {
  pair100k: SPECS.pair100k,
  '1gb': SPECS['1gb'],
  pair1m: SPECS.pair1m,
  small: SPECS.small,
};

interface Options {
  sizes: string[];
  trees: string[];
  rounds: number;
  profile: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    sizes: ['pair100k'],
    trees: [path.resolve(__dirname, '../..')],
    rounds: 1,
    profile: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => argv[++i] ?? '';
    if (arg === '--size') options.sizes = value().split(',');
    else if (arg === '--trees')
      options.trees = value()
        .split(',')
        .map((t) => path.resolve(t));
    else if (arg === '--rounds') options.rounds = Number(value());
    else if (arg === '--profile') options.profile = true;
    else throw new Error(`unknown option ${arg}`);
  }
  for (const size of options.sizes)
    if (!sizes[size]) throw new Error(`--size takes ${Object.keys(sizes).join(', ')}`);
  return options;
}

const ROOT = path.join(os.tmpdir(), 'pairwise-index-speed');
const PROFILES = path.join(os.tmpdir(), 'pairwise-index-profiles');

/** One phase through a tree's own child.ts, in a fresh process. */
function phase<T>(tree: string, name: string, args: unknown, profile: boolean): Promise<T> {
  const stamp = `${name}-${Date.now()}`;
  const argsFile = path.join(ROOT, `${stamp}.args.json`);
  const resultFile = path.join(ROOT, `${stamp}.result.json`);
  fs.writeFileSync(argsFile, JSON.stringify(args));
  const flags = profile ? ['--cpu-prof', '--cpu-prof-dir', path.join(PROFILES, stamp)] : [];
  const child = path.join(tree, 'test/bench/child.ts');
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', ...flags, child, name, argsFile, resultFile],
    {
      cwd: tree,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    proc.on('exit', (code) => {
      fs.rmSync(argsFile, { force: true });
      if (code !== 0 || !fs.existsSync(resultFile))
        return reject(new Error(`${name} exited ${code}`));
      const { value } = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as { value: T };
      fs.rmSync(resultFile, { force: true });
      resolve(value);
    });
  });
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  fs.mkdirSync(ROOT, { recursive: true });
  for (const size of options.sizes) {
    const library = libraryFor(sizes[size]!, ROOT, (line) => console.log(line));
    for (let round = 0; round < options.rounds; round++) {
      const baseline = await phase<BaselineResult>(
        options.trees[0]!,
        'baseline',
        { files: library.files },
        false,
      );
      const parseRate = baseline.bytes / baseline.seconds;
      console.log(
        `${size} round ${round + 1}: JSON.parse ${baseline.seconds.toFixed(2)} s` +
          (baseline.failures.length > 0 ? ` (${baseline.failures.length} files unreadable)` : ''),
      );
      for (const tree of options.trees) {
        const dbPath = path.join(ROOT, `${size}.db`);
        const result = await phase<IndexResult>(
          tree,
          'index',
          { dir: library.dir, dbPath, bytes: library.bytes },
          options.profile,
        );
        const rate = library.bytes / result.seconds;
        const rss = Math.max(result.peakRss.sampled, result.peakRss.kernel ?? 0);
        console.log(
          `  ${path.basename(tree)}: index ${result.seconds.toFixed(2)} s` +
            (baseline.failures.length === 0
              ? `, ÷ JSON.parse ${(rate / parseRate).toFixed(2)}×`
              : '') +
            (result.cpuSeconds === undefined ? '' : `, CPU ${result.cpuSeconds.toFixed(1)} s`) +
            `, writers ${result.writerSeconds.toFixed(1)} s` +
            (result.lockSeconds === undefined
              ? ''
              : `, lock held ${((100 * result.lockSeconds) / result.seconds).toFixed(0)}% of the wall` +
                ` (commits and checkpoints ${((100 * (result.commitSeconds ?? 0)) / result.seconds).toFixed(0)}%)`) +
            `, peak RSS ${mb(rss)}, DB ${mb(result.dbBytes)}, ` +
            `${result.examples} examples, ${result.failed} failed, search ${result.searchReadySeconds.toFixed(1)} s`,
        );
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
