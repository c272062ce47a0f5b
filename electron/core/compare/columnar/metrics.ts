import { SampleRange } from '../../../../shared/compare/metrics';
import type { PairedSample } from '../../../../shared/compare/paired';
import { meanInterval, type MeanInterval } from '../../../../shared/compare/stats/mean-interval';
import type { CompareRun } from '../../../../shared/compare/types';
import type { RunTable } from '../../columns/table';
import { FLAG } from '../codes';
import type { CellCache } from './cells';
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
  const a = cache.read(p.reference, field, 'metric');
  const b = cache.read(p.candidate, field, 'metric');
  const range = new SampleRange();
  const inputMismatch: string[] = [];
  const mismatch = FLAG.inputMismatch;
  const { n, ref, cand, refErrored, candErrored, flags } = p;
  // The same ids on both sides: position k is index k in both tables.
  const same = ref === cand;
  // Once over the positions, taking the differences at scale 1 (a product by 1 is exact);
  // only values large enough to need a smaller scale are read a second time.
  const unscaled = new Float64Array(n);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const i = same ? k : ref[k]!;
    const j = same ? k : cand[k]!;
    if (i < 0 || j < 0 || refErrored[i] || candErrored[j]) continue;
    const x = a[i]!;
    const y = b[j]!;
    if (x !== x || y !== y) continue;
    range.add(x);
    range.add(y);
    unscaled[m++] = sign === 1 ? y - x : x - y;
    if (flags[k]! & mismatch) inputMismatch.push(idAtPosition(p, k));
  }
  const scale = range.scale;
  const canonical = scale === 1 ? fitted(unscaled, m) : new Float64Array(m);
  if (scale !== 1) {
    m = 0;
    for (let k = 0; k < n; k++) {
      const i = same ? k : ref[k]!;
      const j = same ? k : cand[k]!;
      if (i < 0 || j < 0 || refErrored[i] || candErrored[j]) continue;
      const x = a[i]!;
      const y = b[j]!;
      if (x !== x || y !== y) continue;
      canonical[m++] = sign === 1 ? y * scale - x * scale : x * scale - y * scale;
    }
  }
  return { canonical, sign, inputMismatch, scale, levels: range.twoLevels() };
}

/** The first m values, without a copy when they are all of them. */
function fitted(values: Float64Array, m: number): Float64Array {
  return m === values.length ? values : values.slice(0, m);
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
  const read = cache.read(table, field, 'metric');
  const values: number[] = [];
  for (let k = 0; k < table.n; k++) {
    if (errored[k]) continue;
    const value = read[k]!;
    if (value === value) values.push(value);
  }
  return meanInterval(values);
}
