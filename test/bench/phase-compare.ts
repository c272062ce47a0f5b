/**
 * The comparison phase, on a DB the index phase left behind: compare.run cold
 * (first call, fresh process), cached (same settings again) and warm (a resamples value not
 * seen before, so every check and every interval is computed again, with the worker already
 * up). The explorer's queries run in their own phase (phase-explorer.ts).
 */

import { performance } from 'node:perf_hooks';
import type { Report } from '../../shared/compare/types';
import { computeComparison } from '../../electron/core/compare/compute';
import { buildColumnReport } from '../../electron/core/compare/columnar/report';
import { loadExperiment, loadRunDetails, loadRunTable } from '../../electron/core/compare/load';
import { planComparison } from '../../electron/core/compare/plan';
import type { Db } from '../../electron/core/db/open';
import { WorkerPool } from '../../electron/core/jobs/pool';
import { PairwiseService } from '../../electron/core/service';
import { longestBlock, RssSampler, timed, type RssPeak } from './measure';
import { forwardJobProgress } from './progress';

export interface CompareArgs {
  dbPath: string;
  experimentId: string;
  resamples: number;
}

export interface CompareTiming {
  seconds: number;
  /** From pool.run to its result on the main thread: load, compute and the structured clone. */
  workerSeconds: number;
  resamples: number;
  /** The longest the main thread was blocked at once (the compare worker saves the rows). */
  blockedSeconds: number;
}

export interface PairSummary {
  paired: number;
  outputChanged: number;
  metrics: {
    name: string;
    n: number | null;
    difference: number | null;
    ci95: [number, number] | null;
    /** Bootstrap, or an approximation the engine chose for this metric. */
    method: string | null;
  }[];
}

/**
 * Where a warm comparison's time goes, re-run step by step in this process on the same DB:
 * what the compare worker does, split so a slow step can be named.
 */
export interface CompareBreakdown {
  loadSeconds: number;
  reportSeconds: number;
  /** computeComparison as a whole: load + report + the per-example explorer rows. */
  computeSeconds: number;
}

export interface CompareResult {
  cold: CompareTiming;
  cached: { seconds: number };
  breakdown: CompareBreakdown;
  warm: CompareTiming;
  /**
   * Warm again with the two runs' roles swapped (another reference): the worker holds both
   * runs' column stores and mirrors the pairing it kept for the other order.
   */
  swapped?: CompareTiming;
  /**
   * Warm, paired anew: a service whose compare workers keep no pairing
   * (ServiceOptions.keepPairings), after a first comparison has loaded both column stores, so
   * a new resample count pairs the runs again from tables the worker holds, as DuckDB's warm
   * join joins tables it holds.
   */
  repaired?: CompareTiming;
  peakRss: RssPeak;
  summary: PairSummary;
  /** The cold report, for the explorer phase. */
  reportKey: string;
}

function instrumentPool(): { take: () => number } {
  let total = 0;
  const original = WorkerPool.prototype.run;
  WorkerPool.prototype.run = function <T>(
    this: WorkerPool,
    ...args: Parameters<WorkerPool['run']>
  ): Promise<T> {
    const start = performance.now();
    return original.apply(this, args).finally(() => {
      total += performance.now() - start;
    }) as Promise<T>;
  };
  return {
    take: () => {
      const seconds = total / 1000;
      total = 0;
      return seconds;
    },
  };
}

function summarize(report: Report): PairSummary {
  const comparison = report.comparisons[0]!;
  return {
    paired: comparison.coverage.paired,
    outputChanged: comparison.examples.output_changed.length,
    metrics: comparison.metrics.map((m) => ({
      name: m.name,
      n: m.paired?.n ?? null,
      difference: m.paired?.difference ?? null,
      ci95: m.paired?.ci95 ?? null,
      method: m.paired?.method ?? null,
    })),
  };
}

/** The same steps as computeComparison, timed one by one (the worker cannot be timed inside). */
function breakdown(
  db: Db,
  dbPath: string,
  experimentId: string,
  resamples: number,
): CompareBreakdown {
  const plan = planComparison(db, experimentId, { resamples });
  const start = performance.now();
  const experiment = loadExperiment(db, experimentId);
  const runs = plan.conditions.map((c) => {
    const { run, runRowid } = loadRunDetails(db, c.runId, c.name, c.role);
    const table = loadRunTable(db, runRowid);
    if (!table) throw new Error(`Run ${c.runId} has no column store to compare from.`);
    return { run, table };
  });
  const loaded = performance.now();
  buildColumnReport(experiment, runs, { reference: plan.reference, resamples });
  const reported = performance.now();
  computeComparison(db, { ...plan, dbPath }, () => undefined);
  return {
    loadSeconds: (loaded - start) / 1000,
    reportSeconds: (reported - loaded) / 1000,
    computeSeconds: (performance.now() - reported) / 1000,
  };
}

/**
 * A first comparison loads both column stores into a worker that keeps no pairing; the next,
 * with a new resample count, pairs them anew from the tables it holds (the one timed).
 */
async function pairedAnew(args: CompareArgs, pool: { take: () => number }): Promise<CompareTiming> {
  const service = new PairwiseService({
    dbPath: args.dbPath,
    host: 'cli',
    version: 'bench',
    keepPairings: false,
  });
  try {
    const settings = { experimentId: args.experimentId, resamples: args.resamples + 3 };
    await service.compare.run(settings);
    pool.take();
    const anew = { ...settings, resamples: args.resamples + 4 };
    const timing = await timed(() => longestBlock(() => service.compare.run(anew)));
    return {
      seconds: timing.seconds,
      workerSeconds: pool.take(),
      resamples: anew.resamples,
      blockedSeconds: timing.value.blockedSeconds,
    };
  } finally {
    await service.close();
  }
}

export async function comparePhase(args: CompareArgs): Promise<CompareResult> {
  const pool = instrumentPool();
  const sampler = new RssSampler();
  const service = new PairwiseService({ dbPath: args.dbPath, host: 'cli', version: 'bench' });
  let closed: Promise<void> | null = null;
  const closing = () => (closed ??= service.close());
  let pass = 'cold';
  const stopForwarding = forwardJobProgress(service.events, () => pass);
  try {
    const settings = { experimentId: args.experimentId, resamples: args.resamples };
    sampler.reset();
    const cold = await timed(() => longestBlock(() => service.compare.run(settings)));
    const coldWorker = pool.take();
    pass = 'cached';
    const cached = await timed(() => service.compare.run(settings));
    pool.take();
    const warmSettings = { ...settings, resamples: args.resamples + 1 };
    pass = 'warm';
    const warm = await timed(() => longestBlock(() => service.compare.run(warmSettings)));
    stopForwarding();
    const warmWorker = pool.take();
    const { conditions } = planComparison(service.db, args.experimentId, {});
    const reference = conditions.find((c) => c.role === 'reference');
    const candidate = conditions.find((c) => c.role !== 'reference');
    if (!reference || !candidate)
      throw new Error(`Experiment ${args.experimentId} has no reference and candidate to swap.`);
    const swapped = {
      baseline: candidate.runId,
      candidate: reference.runId,
      resamples: args.resamples + 2,
    };
    const mirrored = await timed(() => longestBlock(() => service.compare.run(swapped)));
    const swappedWorker = pool.take();
    const peakRss = sampler.peak();
    const steps = breakdown(service.db, args.dbPath, args.experimentId, warmSettings.resamples);
    stopForwarding();
    await closing();
    const repaired = await pairedAnew(args, pool);

    return {
      cold: {
        seconds: cold.seconds,
        workerSeconds: coldWorker,
        resamples: args.resamples,
        blockedSeconds: cold.value.blockedSeconds,
      },
      cached: { seconds: cached.seconds },
      breakdown: steps,
      warm: {
        seconds: warm.seconds,
        workerSeconds: warmWorker,
        resamples: warmSettings.resamples,
        blockedSeconds: warm.value.blockedSeconds,
      },
      swapped: {
        seconds: mirrored.seconds,
        workerSeconds: swappedWorker,
        resamples: swapped.resamples,
        blockedSeconds: mirrored.value.blockedSeconds,
      },
      repaired,
      peakRss,
      summary: summarize(cold.value.value.report),
      reportKey: cold.value.value.key,
    };
  } finally {
    stopForwarding();
    await closing();
    await sampler.close();
  }
}
