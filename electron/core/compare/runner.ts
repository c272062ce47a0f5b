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

/**
 * Runs comparisons in compare workers, each of which saves its report and pair arrays on its own
 * connection in one transaction, so the service's thread only waits for the result, then drops
 * the experiment's oldest cached reports. A repeated request is answered from the cache;
 * starting a comparison of an experiment cancels the one still running for it.
 */
export class ComparisonRunner {
  private pool: WorkerPool | null = null;
  private running = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly dbPath: string,
    private readonly jobs: JobManager,
    private readonly events: EventHub,
  ) {}

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
      const job: CompareJob = { ...plan, dbPath: this.dbPath, key, handBack: handBack !== null };
      let announced = false;
      const announce = () => {
        if (announced) return;
        announced = true;
        this.events.emit('compare:ready', { experimentId, key });
      };
      // 'saved' comes after the commit, before old reports are dropped.
      await this.workers().run<null>(job, {
        signal: ctx.signal,
        onProgress: ctx.progress,
        onMessage: (value) => {
          if (value === 'saved') announce();
          else if (handBack && isHandedBack(value)) handBack(value.report);
        },
      });
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

  private workers(): WorkerPool {
    this.pool ??= new WorkerPool(
      workerEntry('compare'),
      Math.max(1, Math.min(2, os.availableParallelism())),
    );
    return this.pool;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
