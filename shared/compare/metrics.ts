/**
 * Metric differences: the reported run-level difference, the paired difference over matched
 * examples with its interval and tests (paired.ts), and the verdict against the declared
 * expectation.
 *
 * Everything paired is computed once in a canonical orientation, (run with the larger id) −
 * (run with the smaller id), and negated when the candidate is the smaller id. With the
 * order-independent seed (rng.ts, used by the random sign patterns) this makes swapping reference and candidate negate every
 * difference and mirror every interval exactly, bit for bit.
 */

import type { Direction, Expectation, JsonValue } from '../model';
import { DEFAULT_RESAMPLES } from './bootstrap';
import { compareStrings, jsonEqual } from './canonical';
import { loggedMetrics } from './checks';
import { numericValue, passValue } from './criteria';
import { pairedDifference, type PairedSample } from './paired';
import { isErrored, type Pairing } from './pairing';
import { bootstrapSeed } from './rng';
import type {
  Check,
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

/** The reference run's description of the metric, else the candidate's. */
export function metricDescription(
  reference: CompareRun,
  candidate: CompareRun,
  metric: string,
): string | null {
  const text = (run: CompareRun) => {
    const value = run.metricDefinitions[metric]?.description;
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  };
  return text(reference) ?? text(candidate);
}

/** Numbers, booleans as 0/1 and pass/fail grades as 1/0; other values are left out. */
export function exampleValue(value: Parameters<typeof numericValue>[0]): number | null {
  return numericValue(value) ?? passValue(value);
}

/**
 * Beyond this magnitude (or below its inverse) a difference, a sum of n of them or a square can
 * leave double precision, so the values are scaled by a power of two first (which is exact).
 */
const SAFE_MAGNITUDE = 2 ** 400;

/**
 * 2^-k with 2^k ≤ max < 2^(k+1) when max is outside the safe range, else 1; capped so that
 * the factor itself stays finite for subnormal values.
 */
function safeScale(max: number): number {
  if (max === 0 || (max < SAFE_MAGNITUDE && max > 1 / SAFE_MAGNITUDE)) return 1;
  return 2 ** Math.min(1000, -Math.floor(Math.log2(max)));
}

/**
 * Differences over matched ids where the field is present, not null and numeric on both sides
 * and neither example errored (an errored example's score says nothing about the model).
 * Ids with an input mismatch stay in and are listed.
 */
export function pairedSample(pairing: Pairing, field: string, sign: 1 | -1): PairedSample {
  const references: number[] = [];
  const candidates: number[] = [];
  const mismatch = new Set(pairing.inputMismatch);
  const inputMismatch: string[] = [];
  pairing.matched.forEach((id, k) => {
    const reference = pairing.matchedReference[k]!;
    const candidate = pairing.matchedCandidate[k]!;
    if (isErrored(reference) || isErrored(candidate)) return;
    const a = exampleValue(reference.fields[field]);
    const b = exampleValue(candidate.fields[field]);
    if (a === null || b === null) return;
    references.push(a);
    candidates.push(b);
    if (mismatch.has(id)) inputMismatch.push(id);
  });
  return sampleOfValues(references, candidates, inputMismatch, sign);
}

/**
 * What a sample's values say about its scale and levels, taken one value at a time in any
 * order: the largest magnitude and up to three distinct values (enough to tell two from more).
 */
export class SampleRange {
  private max = 0;
  private readonly levels: number[] = [];

  add(v: number): void {
    this.max = Math.max(this.max, Math.abs(v));
    const levels = this.levels;
    if (levels.length > 2) return;
    // includes() by hand (the same SameValueZero: 0 is -0, NaN is NaN), called a million times.
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i]!;
      if (level === v || (level !== level && v !== v)) return;
    }
    levels.push(v === 0 ? 0 : v);
  }

  get scale(): number {
    return safeScale(this.max);
  }

  /** The two levels, scaled, low first, when the values take at most two; else null. */
  twoLevels(): [number, number] | null {
    const { levels, scale } = this;
    if (levels.length === 0 || levels.length > 2) return null;
    const sorted = [...levels].sort((x, y) => x - y).map((v) => v * scale);
    return [sorted[0]!, sorted[sorted.length - 1]!];
  }
}

/** The paired sample of values read off matched examples, reference and candidate at each i. */
export function sampleOfValues(
  references: ArrayLike<number>,
  candidates: ArrayLike<number>,
  inputMismatch: string[],
  sign: 1 | -1,
): PairedSample {
  const range = new SampleRange();
  for (const side of [references, candidates])
    for (let i = 0; i < side.length; i++) range.add(side[i]!);
  const scale = range.scale;
  const n = references.length;
  const canonical = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = references[i]!;
    const b = candidates[i]!;
    canonical[i] = sign === 1 ? b * scale - a * scale : a * scale - b * scale;
  }
  return { canonical, sign, inputMismatch, scale, levels: range.twoLevels() };
}

/** +1 when the candidate's run id sorts after (or equals) the reference's. */
export function canonicalSign(reference: CompareRun, candidate: CompareRun): 1 | -1 {
  return reference.runId <= candidate.runId ? 1 : -1;
}

/**
 * The checks that confound one metric: a generation setting that differs changes every output,
 * so any difference mixes the intervention with it; a metric defined differently on the two
 * sides (another scorer, field or direction) is not the same measurement. The seed is its own
 * check and is not a confound: replicates differ in it by design.
 */
export function confoundingChecks(checks: readonly Check[], metric: string): string[] {
  return checks
    .filter(
      (c) =>
        c.status === 'differs' &&
        (c.category === 'generation' ||
          (c.path === `metric_definitions.${metric}` && measuresDiffer(c))),
    )
    .map((c) => c.path);
}

function entries(definition: JsonValue): Map<string, JsonValue> {
  if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) {
    return new Map();
  }
  return new Map(Object.entries(definition));
}

/**
 * A `metric_definitions.<name>` check whose definitions differ in what is measured: a key both
 * runs record (scorer, example field, direction, judge…) with different values. A reworded
 * description is not another measurement, and a key one run leaves out is not recorded there
 * (an older writer, or a run with no scored examples), not a different value.
 */
export function measuresDiffer(check: Check): boolean {
  if (check.status !== 'differs') return false;
  const a = entries(check.reference);
  const b = entries(check.candidate);
  for (const [key, value] of a) {
    const other = b.get(key);
    if (key !== 'description' && other !== undefined && !jsonEqual(value, other)) return true;
  }
  return false;
}

/**
 * Judged by where the whole interval lies relative to 0, and only with enough pairs: below
 * MIN_PAIRED_N the interval is a rough guide and carries no verdict; a missing or non-finite
 * interval is inconclusive. A confounded metric (`confounds` not empty) is never judged.
 */
export function verdictFor(
  expect: Expectation | null,
  paired: Pick<PairedDifference, 'ci95' | 'small_n'> | null,
  confounds: readonly string[] = [],
): Verdict | null {
  if (expect === null) return null;
  if (confounds.length > 0) return 'not_comparable';
  if (paired !== null && paired.small_n) return 'too_few_examples';
  const ci95 = paired?.ci95 ?? null;
  if (ci95 === null || !ci95.every(Number.isFinite)) return 'inconclusive';
  const [lo, hi] = ci95;
  if (expect === 'no_effect') return lo <= 0 && hi >= 0 ? 'consistent' : 'inconsistent';
  const above = lo > 0;
  const below = hi < 0;
  if (!above && !below) return 'inconclusive';
  return above === (expect === 'increase') ? 'consistent' : 'inconsistent';
}

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
  checks: readonly Check[] = [],
): MetricComparison[] {
  return metricComparisonsOf(
    experimentId,
    reference,
    candidate,
    (field, sign) => pairedSample(pairing, field, sign),
    resamples,
    checks,
  );
}

/** The metric comparisons with the paired samples taken from `sampleOf` (any pairing's form). */
export function metricComparisonsOf(
  experimentId: string,
  reference: CompareRun,
  candidate: CompareRun,
  sampleOf: (field: string, sign: 1 | -1) => PairedSample,
  resamples: number,
  checks: readonly Check[],
): MetricComparison[] {
  const sign = canonicalSign(reference, candidate);
  return comparedMetrics(reference, candidate).map((name) => {
    const field = sharedExampleField(reference, candidate, name);
    const paired =
      field === null
        ? null
        : pairedDifference(
            sampleOf(field, sign),
            bootstrapSeed(experimentId, reference.runId, candidate.runId, name),
            resamples,
          );
    const expect = candidate.expect[name] ?? null;
    const confounds = confoundingChecks(checks, name);
    return {
      name,
      description: metricDescription(reference, candidate, name),
      example_field: field,
      direction: sharedDirection(reference, candidate, name),
      reported: reportedDifference(reference, candidate, name),
      paired,
      expect,
      verdict: verdictFor(expect, paired, confounds),
      not_comparable: confounds,
    };
  });
}
