/** A radix pass sorts on 16 bits: two passes for a Float32's key, four for a Float64's. */
const RADIX = 1 << 16;
const MASK = RADIX - 1;
/** NaN's key: above +Infinity's, so NaNs end the order and are cut off as the rest. */
const NAN_KEY = -1;

/**
 * Keys are unsigned words that sort as the numbers do, held in Int32Arrays: V8's optimized code
 * keeps int32 arithmetic in machine integers, where an unsigned word above 2^31 became a double
 * (the key loop ran ~2× slower). A number's key is the middle of the key range plus its
 * magnitude's bits, minus them for a negative number, so -0 and 0 share a key, and the low bits
 * of a whole number's key are zero like its magnitude's: a difference of whole numbers, negative
 * ones too, is sorted on its high digit alone (flipping a negative number's bits set them all).
 */
function signedKey(word: number): number {
  const sign = word >> 31;
  return (((word & 0x7fffffff) ^ sign) - sign) ^ 0x80000000;
}

/**
 * The keys of every value, one word each (Float32) or a high and a low word (Float64), and how
 * many keys hold each 16-bit digit: digit d's counts at [d * RADIX, (d + 1) * RADIX), the low
 * word's digits first. Counted as the keys are made, which saves a pass over them.
 */
interface Keys {
  high: Int32Array;
  low: Int32Array | null;
  counts: Int32Array;
  nans: number;
}

/** Each Float32's key, read from its bits (a NaN is any exponent of all ones but ±Infinity's). */
function float32Keys(values: Float32Array): Keys {
  const n = values.length;
  const bits = new Int32Array(values.buffer, values.byteOffset, n);
  const high = new Int32Array(n);
  const counts = new Int32Array(2 * RADIX);
  let nans = 0;
  for (let k = 0; k < n; k++) {
    const word = bits[k]!;
    let key = NAN_KEY;
    if ((word & 0x7fffffff) > 0x7f800000) nans++;
    else key = signedKey(word);
    high[k] = key;
    counts[key & MASK]!++;
    counts[RADIX + (key >>> 16)]!++;
  }
  return { high, low: null, counts, nans };
}

/**
 * Each Float64's key from its two words (little-endian: the high word is the second): its
 * 63-bit magnitude negated across both words for a negative number (the high word borrows
 * when the low one is not zero).
 */
function float64Keys(values: Float64Array): Keys {
  const n = values.length;
  const bits = new Int32Array(values.buffer, values.byteOffset, 2 * n);
  const high = new Int32Array(n);
  const low = new Int32Array(n);
  const counts = new Int32Array(4 * RADIX);
  let nans = 0;
  for (let k = 0; k < n; k++) {
    const lo = bits[2 * k]!;
    const hi = bits[2 * k + 1]!;
    const magnitude = hi & 0x7fffffff;
    let highKey = NAN_KEY;
    let lowKey = NAN_KEY;
    if (magnitude > 0x7ff00000 || (magnitude === 0x7ff00000 && lo !== 0)) nans++;
    else if (hi >= 0) {
      highKey = magnitude ^ 0x80000000;
      lowKey = lo;
    } else {
      highKey = (lo === 0 ? -magnitude : ~magnitude) ^ 0x80000000;
      lowKey = -lo;
    }
    high[k] = highKey;
    low[k] = lowKey;
    counts[lowKey & MASK]!++;
    counts[RADIX + (lowKey >>> 16)]!++;
    counts[2 * RADIX + (highKey & MASK)]!++;
    counts[3 * RADIX + (highKey >>> 16)]!++;
  }
  return { high, low, counts, nans };
}

/**
 * One stable counting pass on a 16-bit digit of `keys`: the positions of `from` (every position
 * in order when null) in the digit's order.
 */
function scatter(
  keys: Int32Array,
  shift: number,
  starts: Int32Array,
  from: Int32Array | null,
): Int32Array {
  let sum = 0;
  for (let i = 0; i < RADIX; i++) {
    const c = starts[i]!;
    starts[i] = sum;
    sum += c;
  }
  const to = new Int32Array(keys.length);
  if (from)
    for (let i = 0; i < from.length; i++) {
      const k = from[i]!;
      to[starts[(keys[k]! >>> shift) & MASK]!++] = k;
    }
  else for (let k = 0; k < keys.length; k++) to[starts[(keys[k]! >>> shift) & MASK]!++] = k;
  return to;
}

/**
 * The positions of `values` that hold a number (NaN is none), in ascending order of value, ties
 * in position order, then the rest in position order. A stable least-significant-digit radix
 * sort on keys made from the values' bits: a few linear passes instead of a comparison sort of a
 * million numbers. A NaN's key is above every number's, so the rest is the order's tail. One
 * pass counts every digit; a digit that is the same for every value (the low bits of whole-number
 * scores, say) is not sorted on, so a difference of whole numbers takes a single pass.
 */
export function rankByValue(values: Float32Array | Float64Array): {
  ranked: Int32Array;
  rest: Int32Array;
} {
  const n = values.length;
  const keys = values instanceof Float64Array ? float64Keys(values) : float32Keys(values);
  // Least significant first: the low word's digits, then the high word's.
  const words = keys.low ? [keys.low, keys.high] : [keys.high];
  const { counts } = keys;
  let order: Int32Array | null = null;
  for (let d = 0; d < 2 * words.length; d++) {
    const starts = counts.subarray(d * RADIX, (d + 1) * RADIX);
    if (n === 0 || starts.includes(n)) continue;
    order = scatter(words[d >> 1]!, d % 2 === 0 ? 0 : 16, starts, order);
  }
  if (!order) {
    order = new Int32Array(n);
    for (let k = 0; k < n; k++) order[k] = k;
  }
  const count = n - keys.nans;
  return { ranked: order.subarray(0, count), rest: order.slice(count) };
}
