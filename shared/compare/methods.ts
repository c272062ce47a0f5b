import { formatCount } from '../format';
import type { PairedDifference } from './types';

/** What the note reads of a comparison: the report's or the UI's view of one. */
interface MethodsOf {
  metrics: { paired: Pick<PairedDifference, 'method' | 'p_method' | 'resamples'> | null }[];
}

const RANDOM = /random/;

/**
 * One sentence naming how the intervals and p-values of some comparisons were computed: the
 * methods differ by metric (two-valued outcomes get a score interval, others a t interval;
 * p-values are exact where n allows), so a caption naming one method would mislead.
 */
export function methodsNote(comparisons: MethodsOf[]): string | null {
  const paired = comparisons.flatMap((c) => c.metrics.flatMap((m) => (m.paired ? [m.paired] : [])));
  if (paired.length === 0) return null;
  const intervals = [...new Set(paired.map((p) => p.method))].sort();
  const tests = [...new Set(paired.flatMap((p) => (p.p_method ? [p.p_method] : [])))].sort();
  const resamples = paired.find((p) => p.p_method && RANDOM.test(p.p_method))?.resamples;
  const parts = [`95 % intervals: ${intervals.join('; ')}.`];
  if (tests.length > 0) parts.push(`p-values: ${tests.join('; ')}.`);
  if (resamples)
    parts.push(
      `Random sign patterns: ${formatCount(resamples)}, seeded from the run ids and the metric.`,
    );
  return parts.join(' ');
}
