import os from 'node:os';
import type { Report } from '../../../shared/compare/types';
import type { RequestInput } from '../../../shared/contract';
import type { Db } from '../db/open';
import type { EventHub } from '../events';
import type { JobManager } from '../jobs/manager';
import { WorkerPool } from '../jobs/pool';
import { workerEntry } from '../jobs/worker-path';
import type { CompareJob } from './compute';
import { planComparison, planPair, type ComparePlan } from './plan';
import { hasReport, readReport, reportKey, type SavedReport, type StoredReport } from './store';

function isHandedBack(value: unknown): value is { report: SavedReport } {
  return typeof value === 'object' && value !== null && 'report' in value;
}

/** An experiment (with an optional reference), or two chosen runs. */
export type CompareSettings = RequestInput<'compare:start'>;

/** Calls `fn` once after `ms`, unless the returned function is called first. */
export type IdleTimer = (fn: () => void, ms: number) => () => void;

/**
 * How long compare workers outlive their last comparison. They keep its runs' tables and
 * pairing (columns/table-cache.ts) so that another setting on the same runs is fast, a few
 * hundred MB at a million examples: a while after the last comparison they are worth less than
 * the memory.
 */
export const COMPARE_IDLE_MS = 2 * 60_000;

const unrefTimer: IdleTimer = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  // An idle wait must not keep a CLI alive.
  timer.unref();
  return () => clearTimeout(timer);
};

export interface RunnerOptions {
  /** How long the workers outlive their last comparison (COMPARE_IDLE_MS by default). */
  idleMs?: number;
  /** The idle wait's timer; tests pass one they fire by hand. */
  idleTimer?: IdleTimer;
  /** Whether workers keep each pairing for the next comparison (ServiceOptions.keepPairings). */
  keepPairings?: boolean;
}

/**
 * Runs comparisons in compare workers, each of which saves its report and pair arrays on its own
 * connection in one transaction, so the service's thread only waits for the result, then drops
 * the experiment's oldest cached reports. A repeated request is answered from the cache;
 * starting a comparison of an experiment cancels the one still running for it.
 */
export class ComparisonRunner {
  private pool: WorkerPool | null = null;
  private running = new Map<string, string>();
  /** Comparisons in the workers now; the idle wait starts when the last one ends. */
  private busy = 0;
  private stopIdleWait: (() => void) | null = null;
  private lettingGo: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly dbPath: string,
    private readonly jobs: JobManager,
    private readonly events: EventHub,
    private readonly options: RunnerOptions = {},
  ) {}

  /** Compare workers alive now, each holding the tables of the last comparison it ran. */
  get workers(): number {
    return this.pool?.workers ?? 0;
  }

  /** The cached report for these settings with the current runs, or null. */
  cached(settings: CompareSettings): StoredReport | null {
    const plan = this.plan(settings);
    return readReport(this.db, reportKey(this.db, plan));
  }

  plan(settings: CompareSettings): ComparePlan {
    return 'baseline' in settings
      ? planPair(this.db, settings.baseline, settings.candidate, settings)
      : planComparison(this.db, settings.experimentId, settings);
  }

  start(settings: CompareSettings): { jobId: string; key: string } {
    return this.launch(settings, null);
  }

  /** `handBack` gets the report the worker sends before saving it (CompareJob). */
  private launch(
    settings: CompareSettings,
    handBack: ((saved: SavedReport) => void) | null,
  ): { jobId: string; key: string } {
    const plan = this.plan(settings);
    const experimentId = plan.experimentId;
    const key = reportKey(this.db, plan);
    const previous = this.running.get(experimentId);
    if (previous) this.jobs.cancel(previous);
    const jobId = this.jobs.start('compare', `Comparing ${experimentId}`, async (ctx) => {
      if (hasReport(this.db, key)) {
        this.events.emit('compare:ready', { experimentId, key });
        return;
      }
      const job: CompareJob = {
        ...plan,
        dbPath: this.dbPath,
        key,
        handBack: handBack !== null,
        keepPairings: this.options.keepPairings ?? true,
      };
      let announced = false;
      const announce = () => {
        if (announced) return;
        announced = true;
        this.events.emit('compare:ready', { experimentId, key });
      };
      this.stopIdleWait?.();
      this.stopIdleWait = null;
      this.busy++;
      try {
        // 'saved' comes after the commit, before old reports are dropped.
        await this.compareWorkers().run<null>(job, {
          signal: ctx.signal,
          onProgress: ctx.progress,
          onMessage: (value) => {
            if (value === 'saved') announce();
            else if (handBack && isHandedBack(value)) handBack(value.report);
          },
        });
      } finally {
        if (--this.busy === 0) this.waitIdle();
      }
      if (ctx.signal.aborted) return;
      announce();
    });
    this.running.set(experimentId, jobId);
    void this.jobs.wait(jobId).then(() => {
      if (this.running.get(experimentId) === jobId) this.running.delete(experimentId);
    });
    return { jobId, key };
  }

  /**
   * Start (or reuse) and wait: what the CLI needs. A report computed for this call is parsed
   * from what the worker hands back while it saves, not read back from the library after.
   */
  async run(settings: CompareSettings): Promise<StoredReport> {
    let handed: StoredReport | null = null;
    const { jobId, key } = this.launch(settings, (saved) => {
      handed = { key, createdAt: saved.createdAt, report: JSON.parse(saved.json) as Report };
    });
    const job = await this.jobs.wait(jobId);
    if (job?.state !== 'finished')
      throw new Error(job?.error ?? `The comparison was ${job?.state ?? 'lost'}.`);
    const report = handed ?? readReport(this.db, key);
    if (!report) throw new Error('The comparison finished but its report is missing.');
    return report;
  }

  private compareWorkers(): WorkerPool {
    this.pool ??= new WorkerPool(
      workerEntry('compare'),
      Math.max(1, Math.min(2, os.availableParallelism())),
    );
    return this.pool;
  }

  private waitIdle(): void {
    const timer = this.options.idleTimer ?? unrefTimer;
    this.stopIdleWait = timer(() => {
      this.stopIdleWait = null;
      this.letGo();
    }, this.options.idleMs ?? COMPARE_IDLE_MS);
  }

  /**
   * Ends the idle workers, and with them their tables, pairings and heap: clearing the tables
   * alone would leave V8 no reason to collect them while the worker waits. The next comparison
   * starts a worker and reads its runs again, which gives the same report.
   */
  private letGo(): void {
    const pool = this.pool;
    if (!pool || this.busy > 0) return;
    this.pool = null;
    this.lettingGo = Promise.all([this.lettingGo, pool.close()]).then(() => undefined);
  }

  async close(): Promise<void> {
    this.stopIdleWait?.();
    this.stopIdleWait = null;
    await Promise.all([this.lettingGo, this.pool?.close()]);
  }
}
