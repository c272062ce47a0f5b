/**
 * A sorted copy of many values that take few: scores, counts, yes/no outcomes and lengths are
 * counted into order rather than sorted, with the same result as a typed array's sort.
 */

/** Values that are not integers of a narrow span are counted up to this many distinct ones. */
const FEW_DISTINCT = 16;

/**
 * Integers spread over at most this many values per value sorted (lengths, token counts) are
 * counted, one slot per integer between the least and the greatest.
 */
const INTEGER_SPAN_PER_VALUE = 4;

/**
 * Integer values counted into ascending order, -0s before 0s as a typed array's sort puts
 * them; null when one is not an integer or they spread too wide to count.
 */
function integersSorted(values: Float64Array): Float64Array | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v)) return null;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const span = max - min + 1;
  // No values (an empty span) is for the general path too.
  if (!(span >= 1 && span <= values.length * INTEGER_SPAN_PER_VALUE)) return null;
  const counts = new Uint32Array(span);
  let negativeZeros = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === 0 && 1 / v < 0) negativeZeros++;
    else counts[v - min]!++;
  }
  const out = new Float64Array(values.length);
  let at = 0;
  for (let d = 0; d < span; d++) {
    const count = counts[d]!;
    // Fill is 0 already: only the -0s and the other values are written.
    if (min + d === 0) {
      out.fill(-0, at, at + negativeZeros);
      at += negativeZeros + count;
    } else if (count > 0) {
      out.fill(min + d, at, at + count);
      at += count;
    }
  }
  return out;
}

/**
 * The values in ascending order, as a typed array's sort gives them (-0 before 0). Scores,
 * counts and yes/no outcomes take a handful of values: counting each beats sorting a million.
 * Integers are tried first: a pass that finds their range costs less than looking each value
 * up among the distinct ones, and it stops at the first value that is not an integer.
 */
export function sortedCopy(values: Float64Array): Float64Array {
  return integersSorted(values) ?? fewSorted(values);
}

/** Few distinct values counted into order; past FEW_DISTINCT (or at a NaN), a plain sort. */
function fewSorted(values: Float64Array): Float64Array {
  const distinct: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    let d = 0;
    // `===` alone would merge -0 into 0, which sort keeps apart.
    while (d < distinct.length && !(distinct[d] === v && (v !== 0 || Object.is(distinct[d], v))))
      d++;
    if (d === distinct.length) {
      if (d === FEW_DISTINCT || v !== v) return Float64Array.from(values).sort();
      distinct.push(v);
      counts.push(0);
    }
    counts[d]!++;
    // Move to the front: the commonest value (0, mostly) is then found at the first look.
    if (d > 0) {
      [distinct[0], distinct[d]] = [distinct[d]!, distinct[0]!];
      [counts[0], counts[d]] = [counts[d]!, counts[0]!];
    }
  }
  const order = Float64Array.from(distinct).sort();
  const out = new Float64Array(values.length);
  let at = 0;
  for (const v of order) {
    const count = counts[distinct.findIndex((x) => Object.is(x, v))]!;
    out.fill(v, at, at + count);
    at += count;
  }
  return out;
}
