/**
 * A metric's verdict and power hint as the words every screen and export shows (the JSON keeps the snake_case
 * value). A confounded metric says what confounds it, with or without an expectation: a metric
 * defined differently on the two sides reads "comparison unavailable".
 */

import { formatCount, formatNumber, formatSigned } from '../format';
import type { MetricComparison, PairedDifference } from './types';

/** Snapshots kept in findings from before confounds existed have no list. */
type Judged = Pick<MetricComparison, 'name' | 'verdict'> & { not_comparable?: string[] };

export function definitionsDiffer(m: Omit<Judged, 'verdict'>): boolean {
  return (m.not_comparable ?? []).includes(`metric_definitions.${m.name}`);
}

/** "generation.temperature differs": what confounds the metric. */
export function confoundWords(m: Omit<Judged, 'verdict'>): string {
  const list = m.not_comparable ?? [];
  return `${list.join(', ')} differ${list.length === 1 ? 's' : ''}`;
}

export function notComparableWords(m: Omit<Judged, 'verdict'>): string {
  const what = `not comparable: ${confoundWords(m)}`;
  return definitionsDiffer(m) ? `comparison unavailable (${what})` : what;
}

/** Null when there is neither a verdict nor a confound to show. */
export function verdictWords(m: Judged): string | null {
  if ((m.not_comparable ?? []).length > 0) return notComparableWords(m);
  if (m.verdict === 'too_few_examples') return 'too few examples';
  return m.verdict;
}

/** One plain sentence on power, only where the numbers support it (the report's or the UI's view). */
export function powerSentence(m: {
  paired: Pick<PairedDifference, 'n' | 'sd' | 'mde' | 'n_for_observed' | 'difference'> | null;
}): string | null {
  const p = m.paired;
  if (!p || p.n < 2 || p.mde === null) return null;
  // No spread: "differences smaller than ±0 are hard to detect" would say nothing.
  if (p.sd === 0 || p.mde === 0) {
    return `All ${formatCount(p.n)} paired differences are equal (${formatSigned(p.difference)}): there is no spread to estimate power from.`;
  }
  const parts = [
    `With n = ${formatCount(p.n)}, differences smaller than about ±${formatNumber(p.mde)} are hard to detect (80 % power, α = 0.05).`,
  ];
  if (p.n_for_observed !== null) {
    parts.push(
      `Detecting the observed ${formatSigned(p.difference)} would take about ${formatCount(p.n_for_observed)} paired examples.`,
    );
  }
  return parts.join(' ');
}
