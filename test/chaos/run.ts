/**
 * `npm run chaos`: kills, a full disk, damaged and foreign files, a read-only mount, hostile
 * sync servers and hostile content, repeated with a seed; prints a table and writes it to
 * docs/reliability.md with the date and commit. Not part of `npm test`: it takes minutes and
 * mounts file systems where it may. Everything it starts listens on 127.0.0.1 only.
 *
 *   npm run chaos                       # 100 kills
 *   PAIRWISE_CHAOS_KILLS=20 npm run chaos
 *   PAIRWISE_CHAOS_SEED=1234 npm run chaos
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { mulberry32 } from '../fixtures/random';
import { contentCases } from './content';
import { killCases } from './kill';
import { table, writeReport, type CaseResult } from './report';
import { serverCases } from './servers';
import { corruptCases, diskFullCase, readOnlyCase } from './storage';

const root = path.resolve(__dirname, '../..');

/** An experiment of four runs big enough that indexing and comparing take a moment. */
function library(dir: string, perRun: number): string {
  const lib = path.join(dir, 'lib');
  const text = (i: number) => `Answer ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}`;
  const make = (id: string, role: string, every: number) =>
    writeMechlensRun(lib, {
      id,
      name: id,
      experiment: { id: 'exp-chaos', role },
      examples: examples(perRun, (i) => ({ refused: i % every === 0, score: i % 7 })).map(
        (e, i) => ({
          ...e,
          output: text(i + every),
        }),
      ),
    });
  make('reference', 'reference', 3);
  make('steer-a', 'intervention', 4);
  make('steer-b', 'intervention', 5);
  make('control', 'control', 3);
  return lib;
}

async function main(): Promise<number> {
  const kills = Number(process.env.PAIRWISE_CHAOS_KILLS ?? 100);
  const seed = Number(process.env.PAIRWISE_CHAOS_SEED ?? Date.now() % 1_000_000);
  const random = mulberry32(seed);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-chaos-'));
  const started = Date.now();
  const results: CaseResult[] = [];
  const step = (label: string) => process.stderr.write(`chaos: ${label}…\n`);
  try {
    const lib = library(work, 4_000);
    step(`${kills} kills`);
    results.push(
      ...(await killCases({
        dbPath: path.join(work, 'kills.db'),
        lib,
        expectedRuns: 4,
        kills,
        random,
      })),
    );
    step('disk full');
    // Small enough that the library fits in 8 MB once the filler is gone.
    results.push(diskFullCase(work, library(path.join(work, 'disk'), 800), 4));
    step('damaged files');
    results.push(...corruptCases(work, lib, 20, random));
    step('read-only mount');
    results.push(readOnlyCase(work, lib));
    step('hostile servers');
    results.push(...(await serverCases(work, library(path.join(work, 'small'), 20))));
    step('hostile content');
    results.push(...(await contentCases(work)));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  const commit = execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8' }).trim();
  const date = new Date().toISOString().slice(0, 10);
  process.stdout.write(`${table(results)}\n`);
  await writeReport(path.join(root, 'docs/reliability.md'), results, {
    date,
    commit,
    seconds,
    seed,
  });
  const failures = results.reduce((n, r) => n + r.failures, 0);
  process.stdout.write(
    `\n${failures} failures in ${Math.round(seconds)} s (seed ${seed}); docs/reliability.md updated.\n`,
  );
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
