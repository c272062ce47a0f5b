/** A radix pass sorts on 16 bits: two passes for a Float32's key, four for a Float64's. */
const RADIX = 1 << 16;
const MASK = RADIX - 1;

/** A float's high (or only) word as an unsigned key that sorts as the numbers do. */
function keyOf(word: number, negative: boolean): number {
  return (negative ? ~word : word | 0x80000000) >>> 0;
}

/**
 * The positions of `values` that hold a number (NaN is none), in ascending order of value, ties
 * in position order, then the rest in position order. A stable least-significant-digit radix
 * sort on the values' bits (a negative number's bits flipped, a positive one's sign bit set, -0
 * keyed as 0 so the two stay ties): a few linear passes instead of a comparison sort of a
 * million numbers, which took most of a first page sorted by a difference. One pass counts
 * every digit; a digit that is the same for every value (the low bits of scores in quarters,
 * say) is not sorted on.
 */
export function rankByValue(values: Float32Array | Float64Array): {
  ranked: Int32Array;
  rest: Int32Array;
} {
  const n = values.length;
  const words = values instanceof Float64Array ? 2 : 1;
  const bits = new Uint32Array(values.buffer, values.byteOffset, n * words);
  // Little-endian: a Float64's high word is its second.
  const high = new Uint32Array(n);
  const low = words === 2 ? new Uint32Array(n) : null;
  const digits = 2 * words;
  const counts = new Int32Array(digits * RADIX);
  const highDigits = (digits - 2) * RADIX;
  const rest = new Int32Array(n);
  let restCount = 0;
  for (let k = 0; k < n; k++) {
    const v = values[k]!;
    if (v !== v) {
      rest[restCount++] = k;
      continue;
    }
    const word = v === 0 ? 0 : bits[k * words + words - 1]!;
    const negative = word >>> 31 === 1;
    const h = keyOf(word, negative);
    high[k] = h;
    counts[highDigits + (h & MASK)]!++;
    counts[highDigits + RADIX + (h >>> 16)]!++;
    if (low) {
      const l = v === 0 ? 0 : (negative ? ~bits[2 * k]! : bits[2 * k]!) >>> 0;
      low[k] = l;
      counts[l & MASK]!++;
      counts[RADIX + (l >>> 16)]!++;
    }
  }
  const count = n - restCount;
  // Null until a pass has run: the positions with a value, ascending.
  let order: Int32Array | null = null;
  for (let d = 0; d < digits; d++) {
    const key = d < digits - 2 ? low! : high;
    const shift = d % 2 === 0 ? 0 : 16;
    const starts = counts.subarray(d * RADIX, (d + 1) * RADIX);
    if (starts.includes(count)) continue;
    for (let i = 0, sum = 0; i < RADIX; i++) {
      const c = starts[i]!;
      starts[i] = sum;
      sum += c;
    }
    const next = new Int32Array(count);
    if (order)
      for (let i = 0; i < count; i++) {
        const k = order[i]!;
        next[starts[(key[k]! >>> shift) & MASK]!++] = k;
      }
    else
      for (let k = 0; k < n; k++)
        if (values[k] === values[k]) next[starts[(key[k]! >>> shift) & MASK]!++] = k;
    order = next;
  }
  if (!order) {
    order = new Int32Array(count);
    for (let k = 0, i = 0; k < n; k++) if (values[k] === values[k]) order[i++] = k;
  }
  return { ranked: order, rest: rest.slice(0, restCount) };
}
