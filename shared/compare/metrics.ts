/**
 * Metric differences (COMPARISON.md §4): the reported run-level difference, the paired
 * difference over matched examples with its bootstrap interval and tests, and the verdict
 * against the declared expectation.
 *
 * Everything paired is computed once in a canonical orientation, (run with the larger id) −
 * (run with the smaller id), and negated when the candidate is the smaller id. With the
 * order-independent seed (rng.ts) this makes swapping reference and candidate negate every
 * difference and mirror every interval exactly, bit for bit.
 */

import type { Direction, Expectation } from '../model';
import { BOOTSTRAP_METHOD, DEFAULT_RESAMPLES, pairedBootstrap } from './bootstrap';
import { compareStrings } from './canonical';
import { loggedMetrics } from './checks';
import { numericValue, passValue } from './criteria';
import { isErrored, type Pairing } from './pairing';
import { bootstrapSeed } from './rng';
import { powerSummary, sampleSd } from './stats/power';
import { wilcoxonSignedRank } from './stats/wilcoxon';
import type {
  CompareRun,
  MetricComparison,
  PairedDifference,
  ReportedDifference,
  Verdict,
} from './types';

export function reportedDifference(
  reference: CompareRun,
  candidate: CompareRun,
  metric: string,
): ReportedDifference {
  const a = reference.metrics[metric] ?? null;
  const b = candidate.metrics[metric] ?? null;
  const difference =
    typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b)
      ? b - a
      : null;
  return { reference: a, candidate: b, difference };
}

/** The example field both runs name for the metric, or null (then there is no interval). */
export function sharedExampleField(
  reference: CompareRun,
  candidate: CompareRun,
  metric: string,
): string | null {
  const a = reference.metricDefinitions[metric]?.example_field ?? null;
  const b = candidate.metricDefinitions[metric]?.example_field ?? null;
  return a !== null && a !== '' && a === b ? a : null;
}

function sharedDirection(
  reference: CompareRun,
  candidate: CompareRun,
  metric: string,
): Direction | null {
  const a = reference.metricDefinitions[metric]?.direction ?? null;
  const b = candidate.metricDefinitions[metric]?.direction ?? null;
  return a === b ? a : null;
}

/** Numbers, booleans as 0/1 and pass/fail grades as 1/0; other values are left out. */
function pairedValue(value: Parameters<typeof numericValue>[0]): number | null {
  return numericValue(value) ?? passValue(value);
}

export interface PairedSample {
  /** Differences in the canonical orientation (see the file comment). */
  canonical: Float64Array;
  /** +1 when candidate − reference is the canonical orientation, else −1. */
  sign: 1 | -1;
  inputMismatch: string[];
}

/**
 * Differences over matched ids where the field is present, not null and numeric on both sides
 * and neither example errored (an errored example's score says nothing about the model).
 * Ids with an input mismatch stay in and are listed.
 */
export function pairedSample(pairing: Pairing, field: string, sign: 1 | -1): PairedSample {
  const values: number[] = [];
  const mismatch = new Set(pairing.inputMismatch);
  const inputMismatch: string[] = [];
  pairing.matched.forEach((id, k) => {
    const reference = pairing.matchedReference[k]!;
    const candidate = pairing.matchedCandidate[k]!;
    if (isErrored(reference) || isErrored(candidate)) return;
    const a = pairedValue(reference.fields[field]);
    const b = pairedValue(candidate.fields[field]);
    if (a === null || b === null) return;
    values.push(sign === 1 ? b - a : a - b);
    if (mismatch.has(id)) inputMismatch.push(id);
  });
  return { canonical: Float64Array.from(values), sign, inputMismatch };
}

/** +1 when the candidate's run id sorts after (or equals) the reference's. */
export function canonicalSign(reference: CompareRun, candidate: CompareRun): 1 | -1 {
  return reference.runId <= candidate.runId ? 1 : -1;
}

/** `0 - x` rather than `-x`, so a zero stays 0 and never becomes -0. */
function oriented(x: number, sign: 1 | -1): number {
  return sign === 1 ? x : 0 - x;
}

function orientedInterval(ci: [number, number], sign: 1 | -1): [number, number] {
  return sign === 1 ? ci : [0 - ci[1], 0 - ci[0]];
}

export function pairedDifference(
  sample: PairedSample,
  seed: string,
  resamples: number,
): PairedDifference {
  const n = sample.canonical.length;
  const base = {
    n,
    resamples,
    seed,
    method: BOOTSTRAP_METHOD,
    p_holm: null,
    input_mismatch: sample.inputMismatch,
  };
  if (n === 0) {
    return {
      ...base,
      difference: null,
      ci95: null,
      p_value: null,
      wilcoxon: null,
      sd: null,
      mde: null,
      n_for_observed: null,
    };
  }
  const boot = pairedBootstrap(sample.canonical, seed, resamples);
  const difference = oriented(boot.mean, sample.sign);
  const ci95 = orientedInterval(boot.ci95, sample.sign);
  const sorted = Float64Array.from(sample.canonical).sort();
  return {
    ...base,
    method: boot.method,
    difference,
    ci95,
    p_value: boot.pValue,
    wilcoxon: wilcoxonSignedRank(sorted),
    ...powerSummary(sampleSd(sorted), n, difference, ci95),
  };
}

/** COMPARISON.md §4 (ours): judged by where the whole interval lies relative to 0. */
export function verdictFor(
  expect: Expectation | null,
  ci95: [number, number] | null,
): Verdict | null {
  if (expect === null) return null;
  if (ci95 === null) return 'inconclusive';
  const [lo, hi] = ci95;
  if (expect === 'no_effect') return lo <= 0 && hi >= 0 ? 'consistent' : 'inconsistent';
  const above = lo > 0;
  const below = hi < 0;
  if (!above && !below) return 'inconclusive';
  return above === (expect === 'increase') ? 'consistent' : 'inconsistent';
}

/** One entry per metric logged by either run, sorted by name. */
/**
 * Logged metrics, plus any metric both runs define over an example field without logging a
 * value (plain JSONL exports often do): its paired difference is still worth having.
 */
function comparedMetrics(reference: CompareRun, candidate: CompareRun): string[] {
  const defined = Object.keys(reference.metricDefinitions).filter(
    (name) => sharedExampleField(reference, candidate, name) !== null,
  );
  return [...new Set([...loggedMetrics(reference, candidate), ...defined])].sort(compareStrings);
}

export function metricComparisons(
  experimentId: string,
  reference: CompareRun,
  candidate: CompareRun,
  pairing: Pairing,
  resamples: number = DEFAULT_RESAMPLES,
): MetricComparison[] {
  const sign = canonicalSign(reference, candidate);
  return comparedMetrics(reference, candidate).map((name) => {
    const field = sharedExampleField(reference, candidate, name);
    const paired =
      field === null
        ? null
        : pairedDifference(
            pairedSample(pairing, field, sign),
            bootstrapSeed(experimentId, reference.runId, candidate.runId, name),
            resamples,
          );
    const expect = candidate.expect[name] ?? null;
    return {
      name,
      example_field: field,
      direction: sharedDirection(reference, candidate, name),
      reported: reportedDifference(reference, candidate, name),
      paired,
      expect,
      verdict: verdictFor(expect, paired?.ci95 ?? null),
    };
  });
}
