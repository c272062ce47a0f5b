/**
 * The comparison report (docs/comparison.md, "The report and the CSVs"): one comparison per pair of
 * runs, and the experiment report that picks the reference, plans the pairs and adds series, the
 * reproduction table, the noise floor and Holm-adjusted p-values. Deterministic: the same input
 * gives the same JSON text byte for byte (fixed key order, sorted ids and pairs, seeded resampling,
 * no clocks).
 */

import { DEFAULT_RESAMPLES } from './bootstrap';
import { compareStrings } from './canonical';
import { evaluatedDiffers, runChecks, summarizeChecks } from './checks';
import { criterionRules, summarizeCriteria } from './criteria';
import { comparisonLimitations } from './limitations';
import { metricComparisons } from './metrics';
import { coverageOf, exampleChanges, pairExamples } from './pairing';
import { runScorecards } from './scorecards';
import { noiseFloor, reproductionTable, seriesCurves } from './series';
import { holmAdjust } from './stats/holm';
import type {
  CompareExperiment,
  CompareOptions,
  CompareRun,
  Comparison,
  Report,
  ReportOptions,
} from './types';

export const CHECKER_VERSION = '1';

/**
 * Sets `p_holm` on every paired metric of the given comparisons, adjusting over all of their
 * p-values together (one family per report).
 */
export function applyHolm(comparisons: Comparison[]): void {
  const paired = comparisons.flatMap((c) => c.metrics.flatMap((m) => (m.paired ? [m.paired] : [])));
  const adjusted = holmAdjust(paired.map((p) => p.p_value));
  paired.forEach((p, i) => {
    p.p_holm = adjusted[i] ?? null;
  });
}

/**
 * Compares one candidate run with one reference run. `p_holm` is adjusted over this
 * comparison's metrics; buildExperimentReport re-adjusts over the whole experiment.
 */
export function compareRuns(
  experiment: CompareExperiment,
  reference: CompareRun,
  candidate: CompareRun,
  options: CompareOptions = {},
): Comparison {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const pairing = pairExamples(reference, candidate);
  const checks = runChecks(reference, candidate, pairing);
  const comparison: Comparison = {
    reference: { condition: reference.conditionName, run_id: reference.runId },
    candidate: { condition: candidate.conditionName, run_id: candidate.runId },
    checks,
    summary: summarizeChecks(checks),
    evaluated_differs: evaluatedDiffers(checks),
    coverage: coverageOf(pairing),
    examples: exampleChanges(pairing),
    criteria: summarizeCriteria(criterionRules(reference, candidate), pairing),
    metrics: metricComparisons(experiment.id, reference, candidate, pairing, resamples, checks),
    limitations: [],
  };
  applyHolm([comparison]);
  comparison.limitations = comparisonLimitations(experiment, comparison);
  return comparison;
}

function startsWithWord(name: string, word: string): boolean {
  return name.toLowerCase().startsWith(word);
}

/**
 * The reference condition (docs/comparison.md, "The reference"): the one named in `explicit`; else
 * the run with role `reference`; else a name starting with `baseline`, else with `control`, else
 * containing either (case-insensitive); else the first condition by name. Ties go to the first by
 * name.
 */
export function chooseReference(runs: CompareRun[], explicit?: string): CompareRun {
  const sorted = [...runs].sort((a, b) => compareStrings(a.conditionName, b.conditionName));
  if (explicit !== undefined) {
    const named = sorted.find((r) => r.conditionName === explicit);
    if (!named) throw new Error(`No run of the reference condition "${explicit}".`);
    return named;
  }
  const rules: ((r: CompareRun) => boolean)[] = [
    (r) => r.role === 'reference',
    (r) => startsWithWord(r.conditionName, 'baseline'),
    (r) => startsWithWord(r.conditionName, 'control'),
    (r) => /baseline|control/i.test(r.conditionName),
  ];
  for (const rule of rules) {
    const hit = sorted.find(rule);
    if (hit) return hit;
  }
  const first = sorted[0];
  if (!first) throw new Error('An experiment report needs at least one run.');
  return first;
}

export interface PlannedPair {
  reference: CompareRun;
  candidate: CompareRun;
}

/**
 * Every other condition against the reference (by candidate name), then each declared
 * `compare_to` pair with the named condition on the reference side (by candidate, then
 * reference name). A pair already planned in either direction is not planned again, and names
 * that match no run are ignored.
 */
export function planPairs(runs: CompareRun[], reference: CompareRun): PlannedPair[] {
  const byName = new Map(runs.map((r) => [r.conditionName, r]));
  const sorted = [...runs].sort((a, b) => compareStrings(a.conditionName, b.conditionName));
  const seen = new Set<string>();
  const key = (a: CompareRun, b: CompareRun): string =>
    JSON.stringify([a.conditionName, b.conditionName].sort(compareStrings));
  const pairs: PlannedPair[] = [];
  const add = (ref: CompareRun, candidate: CompareRun): void => {
    if (ref === candidate || seen.has(key(ref, candidate))) return;
    seen.add(key(ref, candidate));
    pairs.push({ reference: ref, candidate });
  };
  for (const run of sorted) add(reference, run);
  for (const run of sorted) {
    for (const name of [...run.compareTo].sort(compareStrings)) {
      const target = byName.get(name);
      if (target) add(target, run);
    }
  }
  return pairs;
}

/** The report's experiment header, with the reference it chose (its key order is the report's). */
export function reportExperiment(
  experiment: CompareExperiment,
  reference: CompareRun,
): Report['experiment'] {
  return {
    id: experiment.id,
    project: experiment.project,
    reference: reference.conditionName,
    name: experiment.name,
    question: experiment.question,
    claim: experiment.claim,
  };
}

/** The whole experiment: `runs` holds the one current run of each condition. */
export function buildExperimentReport(
  experiment: CompareExperiment,
  runs: CompareRun[],
  options: ReportOptions = {},
): Report {
  const names = new Set<string>();
  for (const run of runs) {
    if (names.has(run.conditionName)) {
      throw new Error(
        `Two runs of condition "${run.conditionName}": pass only the current run of each.`,
      );
    }
    names.add(run.conditionName);
  }
  const reference = chooseReference(runs, options.reference);
  const compareOptions = { resamples: options.resamples ?? DEFAULT_RESAMPLES };
  const comparisons = planPairs(runs, reference).map((p) =>
    compareRuns(experiment, p.reference, p.candidate, compareOptions),
  );
  applyHolm(comparisons);
  return {
    checker_version: CHECKER_VERSION,
    experiment: reportExperiment(experiment, reference),
    runs: runScorecards(runs),
    comparisons,
    series: seriesCurves(runs, reference, comparisons),
    reproduction: reproductionTable(experiment, runs),
    noise_floor: noiseFloor(
      experiment,
      reference.conditionName,
      options.replicates,
      compareOptions,
    ),
  };
}
