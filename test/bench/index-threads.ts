/**
 * `npx tsx test/bench/index-threads.ts [--rounds N] [--opened SECONDS]`
 *
 * Where a first pass over the small library spends its CPU, thread by thread (Linux: each
 * thread's CPU from /proc/self/task): the service's thread, the index workers, and the threads
 * that were there before the service opened (V8's background threads: its optimising compiler
 * and parts of garbage collection). Each round is a fresh process, as the benchmark's index
 * phase is, with the app's built workers when there is a build: a pass on workers started by
 * the pass (the CLI), or, with --opened, on workers started as the service opened that long
 * before (the desktop app, the browser host); then a second folder alike on the warm workers.
 * Medians over the rounds; the figures of docs/benchmarks.md, "Indexing a small library".
 */

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PairwiseService } from '../../electron/core/service';
import { adoptBuiltWorkers, useBuiltWorkers } from './built-workers';
import { libraryFor } from './generate';
import { median, timed } from './measure';
import { againSpec, SPECS } from './specs';

const ROOT = path.join(os.tmpdir(), 'pairwise-index-speed');

/** CPU seconds of each thread of this process, by thread id. */
function threadCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // utime and stime, the 12th and 13th fields after the ")" that closes the name, in clock
      // ticks (100 a second on Linux): a resolution of 10 ms.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(tid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return cpu;
}

interface Split {
  wall: number;
  main: number;
  /**
   * Threads started after the service was constructed that used CPU: its index workers (and
   * libuv's pool, should it start then and use 10 ms or more; each is listed apart).
   */
  workers: number[];
  /** Threads older than the service, the main one aside: V8's and libuv's. */
  background: number;
}

function split(
  wall: number,
  before: Map<string, number>,
  after: Map<string, number>,
  old: Set<string>,
): Split {
  const used = (tid: string) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
  const main = String(process.pid);
  const tids = [...after.keys()].filter((tid) => tid !== main);
  return {
    wall,
    main: used(main),
    workers: tids.filter((tid) => !old.has(tid) && used(tid) > 0).map(used),
    background: tids.filter((tid) => old.has(tid)).reduce((sum, tid) => sum + used(tid), 0),
  };
}

/** One round, in this (fresh) process. */
async function round(
  dir: string,
  againDir: string,
  openedSeconds: number | null,
): Promise<Split[]> {
  adoptBuiltWorkers();
  const dbPath = path.join(ROOT, `threads-${process.pid}.db`);
  const old = new Set(threadCpu().keys());
  const service = new PairwiseService({
    dbPath,
    host: 'cli',
    version: 'bench',
    archive: true,
    startIndexWorkers: openedSeconds !== null,
  });
  try {
    if (openedSeconds !== null) await new Promise((r) => setTimeout(r, openedSeconds * 1000));
    const passes: Split[] = [];
    for (const folder of [dir, againDir]) {
      const before = threadCpu();
      const pass = await timed(() => service.index([folder]));
      passes.push(split(pass.seconds, before, threadCpu(), old));
      await service.search.idle();
      await service.archive.idle();
    }
    return passes;
  } finally {
    await service.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
  }
}

const ms = (seconds: number) => `${Math.round(seconds * 1000)}`;

function show(label: string, splits: Split[]): string {
  const workers = (i: number) =>
    ms(median(splits.map((s) => [...s.workers].sort((a, b) => a - b)[i] ?? 0)));
  const count = Math.max(...splits.map((s) => s.workers.length));
  const total = (s: Split) => s.main + s.background + s.workers.reduce((a, b) => a + b, 0);
  return (
    `${label}: wall ${ms(median(splits.map((s) => s.wall)))} ms, CPU ms: ` +
    `service's thread ${ms(median(splits.map((s) => s.main)))}, ` +
    `workers ${Array.from({ length: count }, (_, i) => workers(i)).join(' / ')}, ` +
    `background ${ms(median(splits.map((s) => s.background)))}, all ${ms(median(splits.map(total)))}`
  );
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv[0] === '--round') {
    const [dir, againDir, opened, out] = argv.slice(1);
    const passes = await round(dir!, againDir!, opened === '-' ? null : Number(opened));
    fs.writeFileSync(out!, JSON.stringify(passes));
    return;
  }
  const rounds = Number(value('--rounds') ?? 3);
  const opened = value('--opened') ?? '-';
  fs.mkdirSync(ROOT, { recursive: true });
  const log = (line: string) => console.log(line);
  const library = libraryFor(SPECS.small, ROOT, log);
  const again = libraryFor(againSpec(SPECS.small), ROOT, log);
  if (!useBuiltWorkers()) log('no build: the workers run from the sources through tsx');
  const first: Split[] = [];
  const warm: Split[] = [];
  for (let i = 0; i < rounds; i++) {
    const out = path.join(ROOT, `threads-${process.pid}.json`);
    const args = ['--import', 'tsx', __filename, '--round', library.dir, again.dir, opened, out];
    const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`round ${i + 1} exited ${child.status}`);
    const [a, b] = JSON.parse(fs.readFileSync(out, 'utf8')) as Split[];
    fs.rmSync(out, { force: true });
    first.push(a!);
    warm.push(b!);
  }
  const how = opened === '-' ? 'workers started by the pass' : `workers started ${opened} s before`;
  log(show(`first pass (${how})`, first));
  log(show('second folder alike, workers warm', warm));
  log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
