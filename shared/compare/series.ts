/**
 * The experiment-level views beside the pairwise comparisons: series curves over `level`
 * (docs/comparison.md, "Runs, series and paper vs observed"), the paper-vs-observed table of a
 * reproduction, and the A/A noise floor from two replicate runs of the reference condition.
 */

import { compareStrings } from './canonical';
import { exampleValue, metricComparisons } from './metrics';
import { indexRun, isErrored, pairExamples } from './pairing';
import { meanInterval, type MeanInterval } from './stats/mean-interval';
import { spearman } from './stats/spearman';
import type {
  CompareExperiment,
  CompareOptions,
  CompareRun,
  Comparison,
  MetricComparison,
  NoiseFloor,
  Reproduction,
  SeriesCurve,
  SeriesPoint,
} from './types';

function numericMetric(run: CompareRun | undefined, metric: string): number | null {
  const value = run?.metrics[metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function byLevelThenName(a: CompareRun, b: CompareRun): number {
  if (a.level !== b.level) {
    if (a.level === null) return 1;
    if (b.level === null) return -1;
    return a.level - b.level;
  }
  return compareStrings(a.conditionName, b.conditionName);
}

/**
 * One curve per series name and metric, points ordered by level. The reference condition is
 * not a point: drawing it at some level is the researcher's call, not ours.
 */
export function seriesCurves(
  runs: CompareRun[],
  reference: CompareRun,
  comparisons: Comparison[],
): SeriesCurve[] {
  const groups = new Map<string, CompareRun[]>();
  for (const run of runs) {
    if (run.series === null || run === reference) continue;
    groups.set(run.series, [...(groups.get(run.series) ?? []), run]);
  }
  const curves: SeriesCurve[] = [];
  for (const name of [...groups.keys()].sort(compareStrings)) {
    const members = groups.get(name)!.sort(byLevelThenName);
    const metrics = [...new Set(members.flatMap((r) => Object.keys(r.metrics)))].sort(
      compareStrings,
    );
    for (const metric of metrics) {
      const points: SeriesPoint[] = members.map((run) => {
        const comparison = comparisons.find(
          (c) => c.candidate.run_id === run.runId && c.reference.run_id === reference.runId,
        );
        const m = comparison?.metrics.find((x) => x.name === metric);
        return {
          condition: run.conditionName,
          level: run.level,
          metric,
          value: numericMetric(run, metric),
          difference: m ? (m.paired ? m.paired.difference : m.reported.difference) : null,
          ci95: m?.paired?.ci95 ?? null,
          n: m?.paired?.n ?? null,
        };
      });
      const usable = points.filter((p) => p.level !== null && p.value !== null);
      const trend = spearman(
        usable.map((p) => p.level!),
        usable.map((p) => p.value!),
      );
      curves.push({
        name,
        metric,
        reference: { condition: reference.conditionName, level: reference.level },
        points,
        trend: { spearman_rho: trend.rho, p_value: trend.p_value, method: trend.method },
      });
    }
  }
  return curves;
}

/**
 * How far a run's own value could move by chance: the interval of the mean of the metric's
 * example field over the run's examples that did not error.
 */
function observedInterval(run: CompareRun, metric: string): MeanInterval | null {
  const field = run.metricDefinitions[metric]?.example_field;
  if (!field) return null;
  const values: number[] = [];
  for (const example of indexRun(run).examples) {
    if (isErrored(example)) continue;
    const value = exampleValue(example.fields[field]);
    if (value !== null) values.push(value);
  }
  return meanInterval(values);
}

/** Paper-vs-observed rows keyed by metric and condition name; null without reported values. */
export function reproductionTable(
  experiment: CompareExperiment,
  runs: CompareRun[],
  intervalOf: (run: CompareRun, metric: string) => MeanInterval | null = observedInterval,
): Reproduction | null {
  const reproduces = experiment.reproduces;
  const reported = reproduces?.reported;
  if (!reproduces || !reported || Object.keys(reported).length === 0) return null;
  const rows = Object.keys(reported)
    .sort(compareStrings)
    .flatMap((metric) => {
      const byCondition = reported[metric] ?? {};
      return Object.keys(byCondition)
        .sort(compareStrings)
        .map((condition) => {
          const paper = byCondition[condition]!;
          const run = runs.find((r) => r.conditionName === condition);
          const observed = numericMetric(run, metric);
          const spread = run ? intervalOf(run, metric) : null;
          return {
            metric,
            condition,
            paper,
            observed,
            difference: observed === null ? null : observed - paper,
            observed_ci95: spread?.ci95 ?? null,
            observed_n: spread?.n ?? null,
          };
        });
    });
  return {
    arxiv: reproduces.arxiv ?? null,
    version: reproduces.version ?? null,
    where: reproduces.where ?? null,
    rows,
  };
}

/**
 * An A/A comparison of the first two replicate runs (by run id) of the reference condition:
 * the difference that arises with no intervention at all.
 */
export function noiseFloor(
  experiment: CompareExperiment,
  referenceCondition: string,
  replicates: Record<string, CompareRun[]> | undefined,
  options: CompareOptions,
  metricsOf: (a: CompareRun, b: CompareRun) => MetricComparison[] = (a, b) =>
    metricComparisons(experiment.id, a, b, pairExamples(a, b), options.resamples),
): NoiseFloor | null {
  const distinct = new Map<string, CompareRun>();
  for (const run of replicates?.[referenceCondition] ?? []) {
    if (!distinct.has(run.runId)) distinct.set(run.runId, run);
  }
  const [a, b] = [...distinct.values()].sort((x, y) => compareStrings(x.runId, y.runId));
  if (!a || !b) return null;
  const metrics = metricsOf(a, b);
  return {
    condition: referenceCondition,
    runs: [a.runId, b.runId],
    metrics: metrics.map((m) => ({
      name: m.name,
      difference: m.paired ? m.paired.difference : m.reported.difference,
      ci95: m.paired?.ci95 ?? null,
      n: m.paired?.n ?? null,
    })),
  };
}
