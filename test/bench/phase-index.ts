/**
 * Indexing phases, each run in its own child process (child.ts) so that one phase's heap never
 * inflates the next one's peak RSS: the JSON.parse baseline, and service.index on a fresh DB
 * followed by a rescan of the unchanged library.
 */

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { IndexStore } from '../../electron/core/ingest/store';
import { PairwiseService } from '../../electron/core/service';
import { longestBlock, RssSampler, timed, type RssPeak } from './measure';

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
    for (const file of args.files) {
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
  /** Also index once more with the FTS trigger dropped, to measure what full-text costs. */
  whatIfNoFts?: boolean;
}

/** The same pass on a fresh DB without the per-row FTS5 trigger, then one bulk FTS rebuild. */
export interface NoFtsWhatIf {
  seconds: number;
  writerSeconds: number;
  /** `INSERT INTO examples_fts(examples_fts) VALUES ('rebuild')` after the pass. */
  rebuildSeconds: number;
}

export interface IndexResult {
  seconds: number;
  runs: number;
  examples: number;
  imported: number;
  failed: number;
  problems: { path: string; message: string }[];
  /** Main-thread time inside IndexStore.writeImported: the single writer's share of the wall. */
  writerSeconds: number;
  /** Event-loop utilisation of the main thread during the pass (writer + message decoding). */
  mainThreadBusy: number;
  /** The longest the main thread (which answers the UI's requests) was blocked at once. */
  blockedSeconds: number;
  peakRss: RssPeak;
  rescanSeconds: number;
  rescanUnchanged: number;
  dbBytes: number;
  closeSeconds: number;
  noFts: NoFtsWhatIf | null;
}

/** Wraps the writer without touching product code: the prototype is shared by the service. */
function instrumentWriter(): { seconds: () => number; reset: () => void } {
  let total = 0;
  const original = IndexStore.prototype.writeImported;
  IndexStore.prototype.writeImported = function (
    this: IndexStore,
    ...args: Parameters<IndexStore['writeImported']>
  ) {
    const start = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      total += performance.now() - start;
    }
  };
  return {
    seconds: () => total / 1000,
    reset: () => {
      total = 0;
    },
  };
}

/**
 * A diagnostic, not a product path: drops the trigger that feeds examples_fts row by row in
 * a throw-away DB, indexes the same files, then builds the full-text index in one go.
 */
async function withoutFts(args: IndexArgs, writer: ReturnType<typeof instrumentWriter>) {
  const dbPath = `${args.dbPath}.nofts`;
  const service = new PairwiseService({ dbPath, host: 'cli', version: 'bench' });
  try {
    service.db.exec('DROP TRIGGER examples_ai');
    writer.reset();
    const pass = await timed(() => service.index([args.dir]));
    const rebuild = await timed(() =>
      service.db.exec(`INSERT INTO examples_fts(examples_fts) VALUES ('rebuild')`),
    );
    return {
      seconds: pass.seconds,
      writerSeconds: writer.seconds(),
      rebuildSeconds: rebuild.seconds,
    };
  } finally {
    await service.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
  }
}

function sizeOnDisk(dbPath: string): number {
  return ['', '-wal', '-shm']
    .map((suffix) => dbPath + suffix)
    .filter((file) => fs.existsSync(file))
    .reduce((sum, file) => sum + fs.statSync(file).size, 0);
}

export async function indexPhase(args: IndexArgs): Promise<IndexResult> {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(args.dbPath + suffix, { force: true });
  const writer = instrumentWriter();
  const sampler = new RssSampler();
  const service = new PairwiseService({ dbPath: args.dbPath, host: 'cli', version: 'bench' });
  try {
    sampler.reset();
    const elu = performance.eventLoopUtilization();
    const first = await timed(() => longestBlock(() => service.index([args.dir])));
    const busy = performance.eventLoopUtilization(elu);
    const peakRss = sampler.peak();
    const stats = first.value.value;
    const rescan = await timed(() => service.index([args.dir]));
    const closed = await timed(() => service.close());
    const writerSeconds = writer.seconds();
    const noFts = args.whatIfNoFts ? await withoutFts(args, writer) : null;
    return {
      seconds: first.seconds,
      runs: stats.runs,
      examples: stats.examples,
      imported: stats.sources.imported,
      failed: stats.sources.failed,
      problems: stats.problems.slice(0, 3),
      writerSeconds,
      mainThreadBusy: busy.utilization,
      blockedSeconds: first.value.blockedSeconds,
      peakRss,
      rescanSeconds: rescan.seconds,
      rescanUnchanged: rescan.value.sources.unchanged,
      dbBytes: sizeOnDisk(args.dbPath),
      closeSeconds: closed.seconds,
      noFts,
    };
  } finally {
    await sampler.close();
  }
}
