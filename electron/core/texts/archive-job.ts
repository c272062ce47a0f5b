import { setTimeout as sleep, setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Db } from '../db/open';
import type { JobContext, JobManager } from '../jobs/manager';
import { CancelledError } from '../jobs/protocol';
import type { Logger } from '../log';
import type { SearchIndexer } from '../search/indexer';
import { pendingRuns } from '../search/readiness';
import { blocksToArchive, UNARCHIVED } from './archive';
import type { ArchiveResult, ArchiveTask, BlockName } from './archive';

/** What the search worker gets to run one slice of the archive on its connection. */
export interface ArchiveSliceTask extends ArchiveTask {
  kind: 'archive';
  dbPath: string;
}

export const ARCHIVE_TITLE = 'Archiving texts';
/** Same as the fill's: how long a slice runs before the job looks whether it may go on. */
const SLICE_MS = 250;
const FIRST_BATCH = 4;
const PAUSE_MS = 50;

export interface TextArchiverOptions {
  /** Archive in the background after the fill (the app, `serve`, `index` unless told not to). */
  enabled: boolean;
  /** How long a slice runs; 0: one block a slice (tests). */
  sliceMs?: number;
  log: Logger;
}

/** What the archive did since the service opened, for the benchmark and the CLI. */
export interface ArchiveStats {
  archived: number;
  /** Texts' JSON bytes of the blocks archived, and what they take compressed. */
  bytes: number;
  compressedBytes: number;
  /** Blocks kept located because their source changed or is gone, each counted once. */
  left: number;
  transactions: number;
  longestHoldMs: number;
}

function noStats(): ArchiveStats {
  return { archived: 0, bytes: 0, compressedBytes: 0, left: 0, transactions: 0, longestHoldMs: 0 };
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * Rewrites the blocks the indexer wrote as `sections` (texts/archive.ts), in the background,
 * once search is ready: the fill's worker runs its slices on the fill's connection, so the two
 * never compete for the lock, and a run still waiting for the fill stops the archive until the
 * fill is done (it calls `schedule` again as it settles). Waits between slices while a
 * comparison runs. A block left located because its source changed or vanished is logged
 * once, and not tried again until something else gives the archive work.
 */
export class TextArchiver {
  private jobId: string | null = null;
  private again = false;
  private readonly waiters: (() => void)[] = [];
  /** Blocks left located, by name, with their size: the same block is not reported twice. */
  private readonly left = new Map<string, number>();
  private batch = FIRST_BATCH;
  readonly stats: ArchiveStats = noStats();

  constructor(
    private readonly db: Db,
    private readonly jobs: JobManager,
    private readonly search: SearchIndexer,
    private readonly options: TextArchiverOptions,
  ) {}

  /** Starts the job when blocks wait for it and search is ready; else lets waiters go. */
  schedule(): void {
    if (!this.options.enabled) return this.settle();
    if (this.jobId !== null) {
      this.again = true;
      return;
    }
    if (this.jobs.closing || pendingRuns(this.db).length > 0 || !this.hasWork())
      return this.settle();
    this.again = false;
    const jobId = this.jobs.start('archive', ARCHIVE_TITLE, (ctx) => this.archive(ctx));
    this.jobId = jobId;
    void this.jobs.wait(jobId).then((job) => {
      this.jobId = null;
      if (job?.state !== 'finished') return this.settle();
      // It stopped for runs the fill has first: the fill schedules us again as it settles.
      if (pendingRuns(this.db).length > 0 && this.jobs.running('search')) return;
      // Blocks indexed while it ran.
      if (this.again) this.schedule();
      else this.settle();
    });
  }

  /** Resolves once search is ready and the archive has nothing left to do (or was stopped). */
  async idle(): Promise<void> {
    await this.search.idle();
    if (this.jobId === null) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private settle(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Whether a block waits that was not already left located as it is now. */
  private hasWork(): boolean {
    const blocks = this.db
      .prepare(
        `SELECT run_rowid AS run, block, length(data) AS size FROM run_texts WHERE ${UNARCHIVED}`,
      )
      .iterate() as IterableIterator<BlockName & { size: number }>;
    // Right after a pass the first block answers; the rest are read only while all are left.
    for (const b of blocks) if (this.left.get(`${b.run}:${b.block}`) !== b.size) return true;
    return false;
  }

  private async archive(ctx: JobContext): Promise<void> {
    // Not inside the caller's turn (the fill's end, an index pass): start on our own.
    await yieldToEvents();
    const total = blocksToArchive(this.db);
    const job = noStats();
    const report = () =>
      ctx.progress({
        phase: ARCHIVE_TITLE,
        done: Math.min(total, job.archived + job.left),
        total,
        detail: summary(job),
      });
    report();
    let after: BlockName | null = null;
    for (;;) {
      while (this.jobs.running('compare') && !ctx.signal.aborted) await sleep(PAUSE_MS);
      if (ctx.signal.aborted) throw new CancelledError();
      // Search comes first: runs indexed meanwhile are filled, then the fill starts us again.
      if (pendingRuns(this.db).length > 0) return;
      const task: ArchiveSliceTask = {
        kind: 'archive',
        dbPath: this.db.name,
        after,
        startBatch: this.batch,
        sliceMs: this.options.sliceMs ?? SLICE_MS,
      };
      const slice = await this.search.workers().run<ArchiveResult>(task, { signal: ctx.signal });
      this.batch = slice.batch;
      after = slice.after;
      this.count(slice, job);
      report();
      if (!slice.more) return;
    }
  }

  private count(slice: ArchiveResult, job: ArchiveStats): void {
    for (const stats of [this.stats, job]) {
      stats.archived += slice.archived;
      stats.bytes += slice.bytes;
      stats.compressedBytes += slice.compressedBytes;
      stats.transactions += slice.transactions;
      stats.longestHoldMs = Math.max(stats.longestHoldMs, slice.longestHoldMs);
    }
    const sizes = this.db.prepare(
      `SELECT length(data) FROM run_texts WHERE run_rowid = ? AND block = ?`,
    );
    for (const block of slice.left) {
      const name = `${block.run}:${block.block}`;
      const size = sizes.pluck().get(block.run, block.block) as number | undefined;
      job.left++;
      if (size === undefined || this.left.get(name) === size) continue;
      this.left.set(name, size);
      this.stats.left++;
      this.options.log.warn(
        { run: block.run, block: block.block, reason: block.reason },
        'texts kept located: their source changed or is gone',
      );
    }
  }
}

function summary(job: ArchiveStats): string {
  const texts = `${megabytes(job.bytes)} of texts → ${megabytes(job.compressedBytes)}`;
  if (job.left === 0) return texts;
  const blocks = job.left === 1 ? '1 block' : `${job.left} blocks`;
  return `${texts}; ${blocks} kept in place: source changed or gone (see the log)`;
}
