import { sampleOfValues } from '../../../../shared/compare/metrics';
import type { PairedSample } from '../../../../shared/compare/paired';
import { meanInterval, type MeanInterval } from '../../../../shared/compare/stats/mean-interval';
import type { CompareRun } from '../../../../shared/compare/types';
import type { RunTable } from '../../columns/table';
import { FLAG } from '../codes';
import { reader, type CellCache } from './cells';
import { idAtPosition, type ColumnPairing } from './pairing';

/**
 * pairedSample from columns: the metric's field read as exampleValue on both sides of every
 * matched, non-errored position where both read as numbers, in id order, with the ids whose
 * inputs differ.
 */
export function columnSample(
  p: ColumnPairing,
  field: string,
  sign: 1 | -1,
  cache: CellCache,
): PairedSample {
  const a = cache.of(p.reference, field);
  const b = cache.of(p.candidate, field);
  const references = new Float64Array(p.matched);
  const candidates = new Float64Array(p.matched);
  const inputMismatch: string[] = [];
  const metricAt = reader('metric', cache.strings);
  const mismatch = FLAG.inputMismatch;
  let m = 0;
  for (let k = 0; k < p.n; k++) {
    const i = p.ref[k]!;
    const j = p.cand[k]!;
    if (i < 0 || j < 0 || p.refErrored[i] || p.candErrored[j]) continue;
    const x = metricAt(a, i);
    const y = metricAt(b, j);
    if (x !== x || y !== y) continue;
    references[m] = x;
    candidates[m++] = y;
    if (p.flags[k]! & mismatch) inputMismatch.push(idAtPosition(p, k));
  }
  return sampleOfValues(references.subarray(0, m), candidates.subarray(0, m), inputMismatch, sign);
}

/** The interval of a run's own mean of the metric's field, over examples that did not error. */
export function columnObservedInterval(
  run: CompareRun,
  table: RunTable,
  errored: Uint8Array,
  metric: string,
  cache: CellCache,
): MeanInterval | null {
  const field = run.metricDefinitions[metric]?.example_field;
  if (!field) return null;
  const cells = cache.of(table, field);
  const metricAt = reader('metric', cache.strings);
  const values: number[] = [];
  for (let k = 0; k < table.n; k++) {
    if (errored[k]) continue;
    const value = metricAt(cells, k);
    if (value === value) values.push(value);
  }
  return meanInterval(values);
}
