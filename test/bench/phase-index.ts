/**
 * Indexing phases, each run in its own child process (child.ts) so that one phase's heap never
 * inflates the next one's peak RSS: the JSON.parse baseline, and service.index on a fresh DB
 * followed by a rescan of the unchanged library.
 */

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { PairwiseService } from '../../electron/core/service';
import { longestBlock, RssSampler, timed, type RssPeak } from './measure';
import { forwardJobProgress, reportProgress } from './progress';

export interface BaselineArgs {
  files: string[];
}

export interface BaselineResult {
  seconds: number;
  bytes: number;
  examples: number;
  /** Files the baseline itself cannot read (e.g. over V8's string limit), with the reason. */
  failures: { file: string; message: string }[];
  peakRss: RssPeak;
}

/**
 * What a researcher's own script does: read each file and JSON.parse it, one after another on
 * one thread. Pairwise should come close to this, since parsing is unavoidable work for both.
 */
export async function baselinePhase(args: BaselineArgs): Promise<BaselineResult> {
  const sampler = new RssSampler();
  sampler.reset();
  let bytes = 0;
  let examples = 0;
  const failures: BaselineResult['failures'] = [];
  const { seconds } = await timed(() => {
    for (const [i, file] of args.files.entries()) {
      reportProgress({ phase: 'JSON.parse', done: i, total: args.files.length });
      try {
        const value = JSON.parse(fs.readFileSync(file, 'utf8')) as { examples?: unknown[] };
        bytes += fs.statSync(file).size;
        examples += value.examples?.length ?? 0;
      } catch (error) {
        failures.push({ file, message: error instanceof Error ? error.message : String(error) });
      }
    }
  });
  const peakRss = sampler.peak();
  await sampler.close();
  return { seconds, bytes, examples, failures, peakRss };
}

export interface IndexArgs {
  dir: string;
  dbPath: string;
  bytes: number;
  /**
   * A second folder alike (the same texts under other run ids), indexed after the first pass
   * by the same service: its workers are up and warm, so the two passes' difference is what
   * starting the index threads costs.
   */
  again?: string;
}

/** The second folder's pass (IndexArgs.again). */
export interface WarmPass {
  seconds: number;
  cpuSeconds: number;
  examples: number;
  failed: number;
}

export interface IndexResult {
  seconds: number;
  runs: number;
  examples: number;
  imported: number;
  failed: number;
  problems: { path: string; message: string }[];
  /** Time the index workers spent storing units (lock waits included), summed over workers. */
  writerSeconds: number;
  /** Time the write lock was held, summed over workers: next to the wall time, how busy the one writer is. */
  lockSeconds?: number;
  /** Of that, the commits with the WAL checkpoints SQLite runs as they end. */
  commitSeconds?: number;
  /**
   * CPU time of the whole process (every thread) during the pass: on a shared machine, steadier
   * than the wall time for telling two versions apart.
   */
  cpuSeconds?: number;
  /** Event-loop utilisation of the main thread during the pass (scan, progress, stats). */
  mainThreadBusy: number;
  /** The longest the main thread (which answers the UI's requests) was blocked at once. */
  blockedSeconds: number;
  peakRss: RssPeak;
  /** After the pass: until the background job made every run searchable. */
  searchReadySeconds: number;
  /** After search: until the background archive had compressed every block of texts. */
  archiveReadySeconds?: number;
  /** What it compressed: the blocks' JSON bytes and what they take now, and blocks it left. */
  archive?: { blocks: number; bytes: number; compressedBytes: number; left: number };
  /**
   * The database's pages in use (pages on the free list left out: the file keeps its size
   * until SQLite reuses them) once search was ready, and once the archive was done.
   */
  liveBytesBeforeArchive?: number;
  liveBytesAfterArchive?: number;
  rescanSeconds: number;
  rescanUnchanged: number;
  warm?: WarmPass;
  dbBytes: number;
  closeSeconds: number;
}

function sizeOnDisk(dbPath: string): number {
  return ['', '-wal', '-shm']
    .map((suffix) => dbPath + suffix)
    .filter((file) => fs.existsSync(file))
    .reduce((sum, file) => sum + fs.statSync(file).size, 0);
}

async function warmPass(service: PairwiseService, dir: string): Promise<WarmPass> {
  const cpu = process.cpuUsage();
  const pass = await timed(() => service.index([dir]));
  const used = process.cpuUsage(cpu);
  return {
    seconds: pass.seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    examples: pass.value.examples,
    failed: pass.value.sources.failed,
  };
}

export interface OpenedArgs {
  dir: string;
  dbPath: string;
  /** How long after the service opened the folder is indexed. */
  delaySeconds: number;
}

/** The first pass of a service that started its index workers as it opened (OpenedArgs). */
export interface OpenedPass extends WarmPass {
  delaySeconds: number;
  /** Index workers the service had started when the pass began. */
  workersStarted: number;
}

/**
 * What a user of the desktop app or the browser host waits for on a first drop: those hosts
 * start the index workers as the library opens (ServiceOptions.startIndexWorkers), and a
 * folder comes some time later. A fresh DB and a fresh process, as for indexPhase; only the
 * delay between the service's open and the pass differs, and the row says how long it was.
 */
export async function indexOpenedPhase(args: OpenedArgs): Promise<OpenedPass> {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(args.dbPath + suffix, { force: true });
  const service = new PairwiseService({
    dbPath: args.dbPath,
    host: 'cli',
    version: 'bench',
    archive: true,
    startIndexWorkers: true,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, args.delaySeconds * 1000));
    const workersStarted = service.indexWorkersStarted;
    const pass = await warmPass(service, args.dir);
    return { ...pass, delaySeconds: args.delaySeconds, workersStarted };
  } finally {
    await service.close();
  }
}

export async function indexPhase(args: IndexArgs): Promise<IndexResult> {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(args.dbPath + suffix, { force: true });
  const sampler = new RssSampler();
  // As the app does: the texts are archived in the background once search is ready.
  const service = new PairwiseService({
    dbPath: args.dbPath,
    host: 'cli',
    version: 'bench',
    archive: true,
  });
  const liveBytes = () => {
    const pragma = (name: string) => service.db.pragma(name, { simple: true }) as number;
    return (pragma('page_count') - pragma('freelist_count')) * pragma('page_size');
  };
  let pass = 'first pass';
  const stopForwarding = forwardJobProgress(service.events, () => pass);
  try {
    sampler.reset();
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const first = await timed(() => longestBlock(() => service.index([args.dir])));
    const busy = performance.eventLoopUtilization(elu);
    const used = process.cpuUsage(cpu);
    const peakRss = sampler.peak();
    const stats = first.value.value;
    const searchReady = await timed(() => service.search.idle());
    // At once, in this turn: the archive's job has started but not written yet.
    const liveBytesBeforeArchive = liveBytes();
    const archiveReady = await timed(() => service.archive.idle());
    const liveBytesAfterArchive = liveBytes();
    const { archived, bytes, compressedBytes, left } = service.archive.stats;
    pass = 'rescan';
    const rescan = await timed(() => service.index([args.dir]));
    const warm = args.again ? await warmPass(service, args.again) : undefined;
    stopForwarding();
    const closed = await timed(() => service.close());
    return {
      seconds: first.seconds,
      runs: stats.runs,
      examples: stats.examples,
      imported: stats.sources.imported,
      failed: stats.sources.failed,
      problems: stats.problems.slice(0, 3),
      writerSeconds: stats.writeSeconds,
      lockSeconds: stats.lockSeconds,
      commitSeconds: stats.commitSeconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      mainThreadBusy: busy.utilization,
      blockedSeconds: first.value.blockedSeconds,
      peakRss,
      searchReadySeconds: searchReady.seconds,
      archiveReadySeconds: archiveReady.seconds,
      archive: { blocks: archived, bytes, compressedBytes, left },
      liveBytesBeforeArchive,
      liveBytesAfterArchive,
      rescanSeconds: rescan.seconds,
      rescanUnchanged: rescan.value.sources.unchanged,
      warm,
      dbBytes: sizeOnDisk(args.dbPath),
      closeSeconds: closed.seconds,
    };
  } finally {
    stopForwarding();
    await sampler.close();
  }
}
