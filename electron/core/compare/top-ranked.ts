/**
 * The first rows of a sort by difference, without the sort: the rows `rankByValue` would put
 * first among those a filter keeps. A first page needs 200 rows of a million, and ranking all of
 * them (keys, a radix pass, the permutation: 12 MB of fresh memory at a million rows) was most of
 * such a page's time on a machine where first touching memory is dear. One pass keeps the best
 * `limit` rows seen so far in a heap, whose worst is at its root; the whole order is still made
 * when a later page needs it (order.ts), and walks to the same rows.
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
    capacity: number,
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

  /** The rows held, in the walk's order. */
  inOrder(): number[] {
    const held = Array.from({ length: this.size }, (_, i) => i);
    held.sort((i, j) => (this.later(i, j) ? 1 : -1));
    return held.map((i) => this.rows[i]!);
  }
}

/**
 * The first `limit` rows (positions) of the walk of a sort by `values` over the rows `keep`
 * marks (every row when null): the rows with a value (NaN is none) ascending by (value,
 * position), or descending by both, then the rows without one by position, whatever the
 * direction: the walk of order.ts's `deltaOrder` with the rows the filter drops left out.
 */
export function topRanked(
  values: Float32Array | Float64Array,
  keep: Uint8Array | null,
  limit: number,
  descending: boolean,
): number[] {
  if (limit <= 0) return [];
  const n = values.length;
  const heap = new WorstFirst(limit, descending);
  // Positions in the order ties are walked, so a row that ties the root never displaces it:
  // with whole-number differences, a hundred thousand rows may share the largest.
  const step = descending ? -1 : 1;
  // Once the heap is full, a row goes in only if it goes before the root (ties go to the root).
  let bound = NaN;
  for (let k = descending ? n - 1 : 0; k >= 0 && k < n; k += step) {
    const v = values[k]!;
    if (v !== v || (keep !== null && keep[k] === 0)) continue;
    if (heap.size < limit) {
      heap.push(v, k);
      if (heap.size === limit) bound = heap.rootValue();
    } else if (descending ? v > bound : v < bound) {
      heap.replaceRoot(v, k);
      bound = heap.rootValue();
    }
  }
  const page = heap.inOrder();
  // Fewer than `limit` rows with a value: then the first rows without one, by position.
  for (let k = 0; k < n && page.length < limit; k++)
    if ((!keep || keep[k]) && values[k] !== values[k]) page.push(k);
  return page;
}
