/**
 * Candidate limitations of one comparison (docs/findings.md, "The draft"), as sentences a
 * researcher could keep in a finding: declared deviations, unknown checks, metrics without an
 * interval, differences in what was evaluated, and partial coverage. Pairwise lists them; it never
 * concludes.
 */

import { formatSigned } from '../format';
import { canonicalJson } from './canonical';
import { measuresDiffer } from './metrics';
import { MIN_PAIRED_N, NOT_COMPUTABLE_METHOD } from './paired';
import type { Check, CompareExperiment, Comparison } from './types';

const MAX_VALUE_CHARS = 60;
const MAX_IDS = 5;

function show(value: Check['reference']): string {
  const text = canonicalJson(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

function idList(ids: string[]): string {
  const shown = ids.slice(0, MAX_IDS).join(', ');
  return ids.length > MAX_IDS ? `${shown} and ${ids.length - MAX_IDS} more` : shown;
}

function examples(count: number): string {
  return count === 1 ? '1 example' : `${count} examples`;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function unknownCheck(check: Check, c: Comparison): string {
  const ref = `the reference run (${c.reference.condition})`;
  const cand = `the candidate run (${c.candidate.condition})`;
  if (check.path === 'examples.ids') {
    const missing = [check.reference === 0 ? ref : null, check.candidate === 0 ? cand : null]
      .filter((side) => side !== null)
      .join(' and ');
    return `examples.ids is unknown: ${missing} logged no examples, so coverage cannot be checked.`;
  }
  const a = check.reference === null ? 'nothing' : show(check.reference);
  const b = check.candidate === null ? 'nothing' : show(check.candidate);
  const what =
    check.reference === null && check.candidate === null
      ? 'neither run records it'
      : `${ref} records ${a} and ${cand} records ${b}`;
  return `${check.path} is unknown: ${what}, so the runs cannot be confirmed to match on it.`;
}

function evaluatedDifference(check: Check, c: Comparison): string {
  if (check.path === 'examples.ids') {
    const parts: string[] = [];
    const { only_reference: onlyRef, only_candidate: onlyCand } = c.coverage;
    if (onlyRef.length > 0) {
      parts.push(`${examples(onlyRef.length)} only in the reference run (${idList(onlyRef)})`);
    }
    if (onlyCand.length > 0) {
      parts.push(`${examples(onlyCand.length)} only in the candidate run (${idList(onlyCand)})`);
    }
    return `examples.ids differs: ${parts.join(' and ')}; the runs differ in what was evaluated.`;
  }
  if (check.path === 'examples.inputs') {
    const ids = c.coverage.input_mismatch;
    return (
      `examples.inputs differs: ${examples(ids.length)} with the same id ` +
      `${ids.length === 1 ? 'has' : 'have'} different input text (${idList(ids)}); ` +
      'they stay in the paired statistics, but the runs differ in what was evaluated.'
    );
  }
  const a = check.reference === null ? 'not recorded' : show(check.reference);
  const b = check.candidate === null ? 'not recorded' : show(check.candidate);
  return (
    `${check.path} differs (reference: ${a}, candidate: ${b}): ` +
    'the runs differ in what was evaluated.'
  );
}

/** The side(s) on which every paired example errored, as "the reference run (name)". */
function allErrored(c: Comparison): string[] {
  const { paired, errored_reference: onRef, errored_candidate: onCand } = c.coverage;
  if (paired === 0) return [];
  return [
    onRef?.length === paired ? `the reference run (${c.reference.condition})` : null,
    onCand?.length === paired ? `the candidate run (${c.candidate.condition})` : null,
  ].filter((side) => side !== null);
}

/**
 * Errored examples are left out of every criterion and paired statistic; when they are all
 * there is, the report must not read as "no change".
 */
function erroredExamples(c: Comparison): string[] {
  const onRef = c.coverage.errored_reference ?? [];
  const onCand = c.coverage.errored_candidate ?? [];
  if (onRef.length === 0 && onCand.length === 0) return [];
  const sides = allErrored(c);
  if (sides.length > 0) {
    return [
      `Every paired example errored on ${sides.join(' and ')}: nothing to compare; ` +
        'the criteria and paired differences are empty, not "no change".',
    ];
  }
  const ids = [...new Set([...onRef, ...onCand])].sort();
  return [
    `${examples(onRef.length)} errored on the reference run and ${onCand.length} on the ` +
      `candidate run (${idList(ids)}); they are left out of every criterion and paired ` +
      `statistic, so ${c.coverage.paired - ids.length} of the ${c.coverage.paired} paired ` +
      'examples are compared.',
  ];
}

function missingInterval(c: Comparison): string[] {
  const out: string[] = [];
  // With nothing but errors to pair, erroredExamples says why the intervals are missing.
  const onlyErrors = allErrored(c).length > 0;
  for (const m of c.metrics) {
    if (m.paired === null) {
      const shown =
        m.reported.difference === null
          ? 'no difference can be shown either'
          : `only the difference of the reported values (${formatSigned(m.reported.difference)}) is shown`;
      out.push(
        `${m.name} has no confidence interval: the two runs do not name the same example field ` +
          `for it, so ${shown}.`,
      );
    } else if (m.paired.ci95 === null && !onlyErrors) {
      out.push(
        `${m.name} has no confidence interval: no paired example has a numeric ` +
          `${m.example_field} on both sides.`,
      );
    }
  }
  return out;
}

function sides(check: Check): string {
  const a = check.reference === null ? 'not recorded' : show(check.reference);
  const b = check.candidate === null ? 'not recorded' : show(check.candidate);
  return `reference: ${a}, candidate: ${b}`;
}

/**
 * Differences that confound a metric make it not comparable (metrics.ts): a differing generation
 * setting touches every metric of the pair, a differing definition only its own metric.
 */
function confounds(c: Comparison): string[] {
  const out: string[] = [];
  const generation = c.checks.filter((k) => k.category === 'generation' && k.status === 'differs');
  if (generation.length > 0) {
    const what = generation.map((k) => `${k.path} (${sides(k)})`).join('; ');
    out.push(
      `Not comparable: the runs were generated with different settings — ${what}. Every ` +
        'difference of this pair mixes the intervention with that change, so no metric gets a verdict.',
    );
  }
  for (const m of c.metrics) {
    const path = `metric_definitions.${m.name}`;
    const check = c.checks.find((k) => k.path === path && measuresDiffer(k));
    if (!check) continue;
    out.push(
      `Comparison unavailable for ${m.name}: the two runs define it differently (${sides(check)}), ` +
        'so its values are not the same measurement and it gets no verdict.',
    );
  }
  return out;
}

/**
 * Intervals that cannot carry a verdict: below the minimum n the method does not keep its 95 %
 * promise, and values beyond double precision leave nothing computable.
 */
function weakIntervals(c: Comparison): string[] {
  const out: string[] = [];
  for (const m of c.metrics) {
    if (m.paired === null) continue;
    if (m.paired.method === NOT_COMPUTABLE_METHOD) {
      out.push(
        `${m.name}: the paired difference is not computable (the values overflow double ` +
          'precision), so it has no interval, p-value or verdict.',
      );
    } else if (m.paired.small_n && m.paired.n > 0) {
      out.push(
        `${m.name} is compared on only ${examples(m.paired.n)} (fewer than ${MIN_PAIRED_N}): ` +
          'its interval is a rough guide and carries no verdict.',
      );
    }
  }
  return out;
}

/** The experiment's declared deviations, one sentence each. */
export function deviationSentences(experiment: CompareExperiment): string[] {
  return experiment.deviations.map((d) => sentence(`Declared deviation: ${d}`));
}

export function comparisonLimitations(experiment: CompareExperiment, c: Comparison): string[] {
  const out = deviationSentences(experiment);
  out.push(...confounds(c));
  for (const check of c.checks) if (check.status === 'unknown') out.push(unknownCheck(check, c));
  out.push(...missingInterval(c));
  out.push(...weakIntervals(c));
  for (const check of c.checks) {
    const evaluated = ['model', 'dataset', 'examples'].includes(check.category);
    if (evaluated && check.status === 'differs') out.push(evaluatedDifference(check, c));
  }
  const { paired, only_reference: onlyRef, only_candidate: onlyCand } = c.coverage;
  if (onlyRef.length > 0 || onlyCand.length > 0) {
    out.push(
      `Coverage is partial: ${examples(paired)} paired, ${onlyRef.length} only in the ` +
        `reference run and ${onlyCand.length} only in the candidate run; unpaired examples are ` +
        'left out of the paired statistics.',
    );
  }
  out.push(...erroredExamples(c));
  return out;
}

/**
 * A reference nothing in the files declares was guessed: a finding built on the comparison
 * should say which run it measured against and why.
 */
export function guessedReferenceLimitation(
  basis: 'chosen' | 'declared' | 'name' | 'earliest',
  reference: string,
): string | null {
  if (basis === 'name')
    return `The reference (${reference}) was guessed from its name: nothing in the files declares it.`;
  if (basis === 'earliest')
    return `The reference (${reference}) was guessed as the earliest run: nothing in the files declares it.`;
  return null;
}
