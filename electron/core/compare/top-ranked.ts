/**
 * The first rows of a sort by difference, without the sort: the rows `rankByValue` would put
 * first among those a filter keeps. A first page needs 200 rows of a million, and ranking all of
 * them (keys, a radix pass, the permutation: 12 MB of fresh memory at a million rows) was most of
 * such a page's time on a machine where first touching memory is dear. One pass keeps the best
 * `limit` rows seen so far in a heap, whose worst is at its root; the whole order is still made
 * when a later page needs it (order.ts), and walks to the same rows. The values come a chunk at
 * a time, read through one small buffer (`PairArrays.eachDelta`): read whole, they were 4 MB of
 * fresh memory more.
 */

/**
 * Whether row a (value va) comes after row b (value vb) in the walk: ascending by (value,
 * position), or descending by both. -0 and 0 compare equal here, as their ranking keys do.
 */
function after(va: number, ka: number, vb: number, kb: number, descending: boolean): boolean {
  if (va !== vb) return descending ? va < vb : va > vb;
  return descending ? ka < kb : ka > kb;
}

/** A max-heap of rows by `after`: its root is the row the walk reaches last. */
class WorstFirst {
  size = 0;
  private readonly values: Float64Array;
  private readonly rows: Int32Array;

  constructor(
    readonly capacity: number,
    private readonly descending: boolean,
  ) {
    this.values = new Float64Array(capacity);
    this.rows = new Int32Array(capacity);
  }

  /** The value of the row the walk reaches last of those held. */
  rootValue(): number {
    return this.values[0]!;
  }

  private later(i: number, j: number): boolean {
    const { values, rows } = this;
    return after(values[i]!, rows[i]!, values[j]!, rows[j]!, this.descending);
  }

  private swap(i: number, j: number): void {
    const { values, rows } = this;
    const v = values[i]!;
    values[i] = values[j]!;
    values[j] = v;
    const k = rows[i]!;
    rows[i] = rows[j]!;
    rows[j] = k;
  }

  push(v: number, k: number): void {
    let i = this.size++;
    this.values[i] = v;
    this.rows[i] = k;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.later(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  replaceRoot(v: number, k: number): void {
    this.values[0] = v;
    this.rows[0] = k;
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.later(right, left) ? right : left;
      if (!this.later(child, i)) break;
      this.swap(child, i);
      i = child;
    }
  }

  /** The rows held, in the walk's order, and their values. */
  inOrder(): { rows: number[]; values: number[] } {
    const held = Array.from({ length: this.size }, (_, i) => i);
    held.sort((i, j) => (this.later(i, j) ? 1 : -1));
    return { rows: held.map((i) => this.rows[i]!), values: held.map((i) => this.values[i]!) };
  }
}

/**
 * A sort's values a chunk at a time: each chunk holds the values of rows from..from + length -
 * 1, the chunks in the order of those rows or, backwards, from the last rows.
 */
export type ValueChunks = (
  backwards: boolean,
  visit: (values: Float32Array | Float64Array, from: number) => void,
) => void;

/**
 * The first row of the chunk from i on whose value goes before `bound` in an ascending walk
 * (NaN never does), or the chunk's length. Most rows fail the test once the heap is full, and a
 * first sort runs this loop before V8 has optimized it: alone in a small function, it is compiled
 * in a few milliseconds, where a loop with the heap's code inlined took 12–30 ms to compile.
 */
function nextBelow(values: Float32Array | Float64Array, i: number, bound: number): number {
  const n = values.length;
  for (; i < n; i++) if (values[i]! < bound) return i;
  return n;
}

/** `nextBelow` for a descending walk: the last row from i down above `bound`, or -1. */
function nextAbove(values: Float32Array | Float64Array, i: number, bound: number): number {
  for (; i >= 0; i--) if (values[i]! > bound) return i;
  return -1;
}

/**
 * One chunk into the heap in an ascending walk's order. Once the heap is full, a row goes in
 * only if it goes before the root (ties go to the root: rows come in the order ties are walked,
 * and with whole-number differences a hundred thousand rows may share the largest).
 */
function walkUp(
  values: Float32Array | Float64Array,
  from: number,
  keep: Uint8Array | null,
  heap: WorstFirst,
): void {
  const n = values.length;
  let i = 0;
  for (; i < n && heap.size < heap.capacity; i++) {
    const v = values[i]!;
    if (v === v && (keep === null || keep[from + i] !== 0)) heap.push(v, from + i);
  }
  if (heap.size < heap.capacity) return;
  for (
    i = nextBelow(values, i, heap.rootValue());
    i < n;
    i = nextBelow(values, i + 1, heap.rootValue())
  )
    if (keep === null || keep[from + i] !== 0) heap.replaceRoot(values[i]!, from + i);
}

/** `walkUp` for a descending walk: the chunk from its last row. */
function walkDown(
  values: Float32Array | Float64Array,
  from: number,
  keep: Uint8Array | null,
  heap: WorstFirst,
): void {
  let i = values.length - 1;
  for (; i >= 0 && heap.size < heap.capacity; i--) {
    const v = values[i]!;
    if (v === v && (keep === null || keep[from + i] !== 0)) heap.push(v, from + i);
  }
  if (heap.size < heap.capacity) return;
  for (
    i = nextAbove(values, i, heap.rootValue());
    i >= 0;
    i = nextAbove(values, i - 1, heap.rootValue())
  )
    if (keep === null || keep[from + i] !== 0) heap.replaceRoot(values[i]!, from + i);
}

/** A first page's rows in order, and each one's value (null for a row without one). */
export interface TopRows {
  rows: number[];
  value: (k: number) => number | null;
}

/**
 * The first `limit` rows (positions) of the walk of a sort by the values `chunks` gives over
 * the rows `keep` marks (every row when null): the rows with a value (NaN is none) ascending by
 * (value, position), or descending by both, then the rows without one by position, whatever
 * the direction: the walk of order.ts's `deltaOrder` with the rows the filter drops left out.
 */
export function topRanked(
  chunks: ValueChunks,
  keep: Uint8Array | null,
  limit: number,
  descending: boolean,
): TopRows {
  if (limit <= 0) return { rows: [], value: () => null };
  const heap = new WorstFirst(limit, descending);
  chunks(descending, (values, from) => (descending ? walkDown : walkUp)(values, from, keep, heap));
  const { rows, values } = heap.inOrder();
  const valued = new Map(rows.map((k, i) => [k, values[i]!]));
  // Fewer than `limit` rows with a value: then the first rows without one, by position.
  if (rows.length < limit)
    chunks(false, (chunk, from) => {
      for (let i = 0; i < chunk.length && rows.length < limit; i++)
        if ((!keep || keep[from + i]) && chunk[i] !== chunk[i]) rows.push(from + i);
    });
  return { rows, value: (k) => valued.get(k) ?? null };
}
