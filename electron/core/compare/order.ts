import type { ParsedInput } from '../../../shared/contract';
import { BadRequestError } from '../errors';
import { FLAG } from './codes';
import { compareIdAt, idLowerBound, type PairArrays } from './pair-arrays';
import { derived, type PairView } from './pair-cache';
import { rankByValue } from './rank';

type Sort = ParsedInput<'examples:page'>['sort'];

/**
 * The rows of a pair in one sort: first `ranked` (positions in ascending (value, example id)
 * order; null when that is every position in id order), walked backwards for a descending
 * sort, then `rest` (rows with no value, by example id whatever the direction).
 */
export interface SortOrder {
  ranked: Int32Array | null;
  count: number;
  rest: Int32Array;
  /** Row k's sort value; null for a row of `rest`. */
  value: (k: number) => number | null;
}

/**
 * Rows without the flag, then rows with it, each in id order: one pass that fills the first
 * from the front and the second from the back, whose tail is then reversed in place (a native
 * pass). The flags are read from the pair once, not through its getter per row.
 */
function flagOrder(p: PairArrays, bit: number): SortOrder {
  const { flags, rows: n } = p;
  const ranked = new Int32Array(n);
  let front = 0;
  let back = n;
  for (let k = 0; k < n; k++) {
    if (flags[k]! & bit) ranked[--back] = k;
    else ranked[front++] = k;
  }
  ranked.subarray(back).reverse();
  return { ranked, count: n, rest: new Int32Array(0), value: flagValue(flags, bit) };
}

/** Row k's value in a sort by a flag: 1 with it, 0 without. */
export function flagValue(flags: Uint8Array, bit: number): (k: number) => number {
  return (k) => (flags[k]! & bit ? 1 : 0);
}

/** The flag a sort orders by, or null for a sort by id or by a difference. */
export function flagOf(sort: Sort): number | null {
  if (sort === 'output_changed') return FLAG.outputChanged;
  return sort === 'behavior_changed' ? FLAG.behaviorChanged : null;
}

/**
 * The rows at the first steps of a flag order's walk that `keep` marks (every row when null),
 * at most `count`, without the order: ascending, the rows without the flag from the first row
 * on, then those with it; descending, the rows with it from the last row back, then those
 * without. A first page needs a few hundred rows of a million, and the order is a permutation
 * of every row (4 MB of fresh memory at a million), made when a later page needs it.
 */
export function flagWalk(
  flags: Uint8Array,
  bit: number,
  keep: Uint8Array | null,
  count: number,
  descending: boolean,
): number[] {
  const n = flags.length;
  const rows: number[] = [];
  const first = descending ? bit : 0;
  for (const side of [first, bit - first])
    for (let i = 0; i < n && rows.length < count; i++) {
      const k = descending ? n - 1 - i : i;
      if ((flags[k]! & bit) === side && (keep === null || keep[k] !== 0)) rows.push(k);
    }
  return rows;
}

/**
 * By one criterion's difference: the rows that have one, ranked by value (ties in id order,
 * `rankByValue`), then the rows without one.
 */
function deltaOrder(p: PairArrays, criterion: string | undefined): SortOrder {
  const c = criterion === undefined ? -1 : p.criteria.indexOf(criterion);
  const deltas = c >= 0 ? p.deltaOf(c) : null;
  if (!deltas)
    return {
      ranked: new Int32Array(0),
      count: 0,
      rest: Int32Array.from({ length: p.rows }, (_, k) => k),
      value: () => null,
    };
  const { ranked, rest } = rankByValue(deltas);
  return { ranked, count: ranked.length, rest, value: deltaValue(deltas) };
}

/** Row k's value in a sort by these differences: null where it has none. */
function deltaValue(deltas: Float32Array | Float64Array): (k: number) => number | null {
  return (k) => (Number.isNaN(deltas[k]!) ? null : deltas[k]!);
}

function idOrder(p: PairArrays): SortOrder {
  return { ranked: null, count: p.rows, rest: new Int32Array(0), value: () => null };
}

const orderKey = (sort: Sort, criterion: string | undefined) =>
  JSON.stringify(['order', sort, sort === 'delta' ? criterion : null]);

/** Whether the pair holds the order of a sort already made. */
export function orderMade(view: PairView, sort: Sort, criterion: string | undefined): boolean {
  return sort === 'example_id' || view.memo.has(orderKey(sort, criterion));
}

/** The pair's order for a sort, made once while the pair is kept. */
export function sortOrder(view: PairView, sort: Sort, criterion: string | undefined): SortOrder {
  if (sort === 'example_id') return idOrder(view);
  return derived(view, orderKey(sort, criterion), () =>
    sort === 'delta' ? deltaOrder(view, criterion) : flagOrder(view, flagOf(sort)!),
  );
}

/** A page cursor: the last row's (sort value, example id); for the id sort, (id, id). */
export type Cursor = [number | string | null, string];

/** How many rows the order walks: ranked, then rest. */
export function orderLength(order: SortOrder): number {
  return order.count + order.rest.length;
}

/** The position of the row at step i of the walk. */
export function stepAt(order: SortOrder, descending: boolean, i: number): number {
  if (i >= order.count) return order.rest[i - order.count]!;
  const j = descending ? order.count - 1 - i : i;
  return order.ranked ? order.ranked[j]! : j;
}

/** The first j in [0, length) where `below(j)` is false; `below` is true up to some point. */
function partition(length: number, below: (j: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function forged(): never {
  throw new BadRequestError(
    'That page cursor was not made by this list: start again from the first page.',
  );
}

/**
 * The step of the walk that comes right after the cursor's row, found by binary search, so a
 * cursor keeps its place even if the row it names is not in the pair.
 */
export function stepAfter(
  p: PairArrays,
  order: SortOrder,
  sort: Sort,
  descending: boolean,
  [value, id]: Cursor,
): number {
  const bytes = Buffer.from(id, 'utf8');
  if (sort === 'example_id') {
    const below = idLowerBound(p, bytes);
    if (descending) return order.count - below;
    return below < p.rows && compareIdAt(p, below, bytes) === 0 ? below + 1 : below;
  }
  if (value === null) {
    if (sort !== 'delta') forged();
    const { rest } = order;
    return order.count + partition(rest.length, (j) => compareIdAt(p, rest[j]!, bytes) <= 0);
  }
  if (typeof value !== 'number') forged();
  const ranked = order.ranked!;
  const compare = (j: number) => {
    const v = order.value(ranked[j]!)!;
    return v < value ? -1 : v > value ? 1 : compareIdAt(p, ranked[j]!, bytes);
  };
  if (descending) return order.count - partition(order.count, (j) => compare(j) < 0);
  return partition(order.count, (j) => compare(j) <= 0);
}

/** The cursor that continues after row k, whose example id is `id`. */
export function cursorAt(
  order: Pick<SortOrder, 'value'>,
  sort: Sort,
  k: number,
  id: string,
): Cursor {
  return [sort === 'example_id' ? id : order.value(k), id];
}
