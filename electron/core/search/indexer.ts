import { setTimeout as sleep, setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Db } from '../db/open';
import type { JobContext, JobManager } from '../jobs/manager';
import { WorkerPool } from '../jobs/pool';
import { CancelledError } from '../jobs/protocol';
import { workerEntry } from '../jobs/worker-path';
import type { FillResult, FillTask } from './fill';
import { allPending, pendingRuns } from './readiness';
import { SearchScans } from './scans';

/**
 * Pending examples past which the scan workers start with the fill: a search asked before it
 * ends is answered by scans, and a large library's first search then spares their start-up.
 */
const WARM_SCANS_AT = 100_000;
/** Where an adaptive batch starts; the worker sizes the next ones to its lock-hold target. */
const FIRST_BATCH = 1000;
/**
 * How long the worker fills before it hands back: the longest a search's runs wait before
 * they go first, and how often the progress moves.
 */
const SLICE_MS = 250;
/** How often a paused fill looks again whether it may go on. */
const PAUSE_MS = 50;

export interface SearchIndexerOptions {
  /** Rowids per transaction, fixed (tests); by default sized to hold the lock ~30 ms. */
  batch?: number;
  /** How long the worker fills before it hands back; 0: one transaction at a time (tests). */
  sliceMs?: number;
  /** Called whenever the job stops or finds no run to fill: the texts archive's cue. */
  settled?: () => void;
}

/** What the fill measured, for the benchmark. */
export interface FillStats {
  /** Transactions that held the write lock: batches and merge steps. */
  transactions: number;
  /** Of those, steps of merging the index's segments (merges.ts). */
  mergeSteps: number;
  longestHoldMs: number;
  /** Transactions that held the write lock longer than 50 ms. */
  longHolds: number;
}

/**
 * Fills the full-text index after indexing commits, so that writing a run never waits on it.
 * The writing happens in a search worker on its own connection (fill.ts), a slice at a time,
 * so the service's thread only picks the order: runs asked for by a search go first, the rest
 * after. One job at a time; it stops when no run is left. While a comparison runs the job
 * waits between slices (unless a search is waiting for it): on a small machine the two would
 * share the cores and the write lock.
 */
export class SearchIndexer {
  private jobId: string | null = null;
  private readonly priority = new Set<number>();
  private readonly waiters: (() => void)[] = [];
  private pool: WorkerPool | null = null;
  private batch = FIRST_BATCH;
  private pages: number | undefined;
  readonly stats: FillStats = { transactions: 0, mergeSteps: 0, longestHoldMs: 0, longHolds: 0 };
  /** Answers a search over runs the fill has not reached yet. */
  readonly scans: SearchScans;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobManager,
    private readonly options: SearchIndexerOptions = {},
  ) {
    this.scans = new SearchScans(db);
  }

  /** Starts the job unless it is running; it stops when no run is left to index. */
  schedule(): void {
    if (this.jobId !== null) return;
    // Called when a fill job ends, too: one that ends as the library closes starts no other.
    if (this.jobs.closing || pendingRuns(this.db).length === 0) return this.settle();
    const jobId = this.jobs.start('search', 'Preparing search', (ctx) => this.fill(ctx));
    this.jobId = jobId;
    void this.jobs.wait(jobId).then((job) => {
      this.jobId = null;
      // New runs may have been indexed while the last slice was written.
      if (job?.state === 'finished') this.schedule();
      else this.settle();
    });
  }

  /** These runs next: a search is waiting for them. */
  prioritise(runRowids: number[]): void {
    for (const rowid of runRowids) this.priority.add(rowid);
    this.schedule();
  }

  /** Resolves once every run is searchable, or the job stopped (cancelled, failed). */
  idle(): Promise<void> {
    if (this.jobId === null && pendingRuns(this.db).length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.pool?.close(), this.scans.close()]);
  }

  private settle(): void {
    // Before the waiters go, so that whoever waits for the archive finds its job started.
    this.options.settled?.();
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /**
   * Whether the next slice may go: no scan runs (a search waits for it, and its answer does
   * not need the fill), and no comparison runs, or a search waits for a run.
   */
  private mayGoOn(): boolean {
    this.forgetReady(new Set(pendingRuns(this.db)));
    if (this.scans.busy()) return false;
    return this.priority.size > 0 || !this.jobs.running('compare');
  }

  /** A search's runs stop going first once they are searchable. */
  private forgetReady(pending: Set<number>): void {
    for (const rowid of this.priority) if (!pending.has(rowid)) this.priority.delete(rowid);
  }

  /** Pending runs, those a search waits for first. */
  private order(): number[] {
    const pending = pendingRuns(this.db);
    this.forgetReady(new Set(pending));
    return [...this.priority, ...pending.filter((rowid) => !this.priority.has(rowid))];
  }

  /** The search worker: the texts archive runs its slices there too, on the fill's connection. */
  workers(): WorkerPool {
    this.pool ??= new WorkerPool(workerEntry('search'), 1);
    return this.pool;
  }

  private async fill(ctx: JobContext): Promise<void> {
    // Not inside the caller's turn (the end of an index pass, a request): start on our own.
    await yieldToEvents();
    if ((allPending(this.db)?.total ?? 0) >= WARM_SCANS_AT) this.scans.warm();
    // A search asked as the fill starts: its scans take both cores rather than share them with
    // the fill worker's start and first slice (later slices wait in mayGoOn).
    while (this.scans.busy() && !ctx.signal.aborted) await sleep(PAUSE_MS);
    if (ctx.signal.aborted) throw new CancelledError();
    for (;;) {
      const order = this.order();
      if (order.length === 0) return;
      const task: FillTask = {
        dbPath: this.db.name,
        order,
        batch: this.options.batch ?? null,
        startBatch: this.batch,
        sliceMs: this.options.sliceMs ?? SLICE_MS,
        startPages: this.pages,
      };
      const result = await this.workers().run<FillResult>(task, { signal: ctx.signal });
      this.batch = result.batch;
      this.pages = result.pages;
      this.stats.transactions += result.transactions;
      this.stats.mergeSteps += result.mergeSteps;
      this.stats.longestHoldMs = Math.max(this.stats.longestHoldMs, result.longestHoldMs);
      this.stats.longHolds += result.longHolds;
      const left = allPending(this.db);
      ctx.progress({ phase: 'Preparing search', done: left?.done ?? 1, total: left?.total ?? 1 });
      if (!left) return;
      while (!this.mayGoOn() && !ctx.signal.aborted) await sleep(PAUSE_MS);
      if (ctx.signal.aborted) throw new CancelledError();
    }
  }
}
