import { NotFoundError } from '../errors';
import type { PairRows, PairSide } from './compute';
import { NO_ROWID } from './codes';
import { pairCounts } from './counts';
import type { PairSection } from './pair-files';
import { idList, pairIdAt, pairIdsOf, strictlyAscending, type PairIds } from './pair-ids';

/**
 * A compared pair's explorer data: one row of `pair_arrays` and its file (pair-files.ts), every
 * per-example value in a typed array indexed by the example's position k. Positions follow the example ids in UTF-8
 * byte order (SQLite's BINARY order, the explorer's tie-break), so "by example id" is "by k".
 * Arrays are stored in the machine's byte order (little-endian everywhere Pairwise runs).
 */
export interface PairArrays {
  rows: number;
  /** The pair's criteria in the report's order; classes and deltas follow it. */
  criteria: string[];
  reference: PairSide | null;
  candidate: PairSide | null;
  /** Every example id as UTF-8, one after another: id k is bytes offsets[k] to offsets[k + 1]. */
  ids: Buffer;
  offsets: Uint32Array;
  /** Each side's example rowid, NO_ROWID where that side has none. */
  refRowids: Float64Array;
  candRowids: Float64Array;
  /** Side and yes/no flags per example (codes.ts). */
  flags: Uint8Array;
  /** classes[c][k]: class code of example k under criteria[c]. */
  classes: Uint8Array[];
  /**
   * deltas[c][k]: candidate − reference under criteria[c], NaN where there is none (Float32
   * when every difference of the pair is exactly one).
   */
  deltas: (Float32Array | Float64Array)[];
  /** Rows matching each one-condition filter (counts.ts keys). */
  counts: Record<string, number>;
}

/**
 * A pair as stored: its `pair_arrays` row's metadata (other than its report, pair and file) and
 * the arrays its file holds.
 */
export interface StoredPairArrays {
  rows: number;
  criteria: string;
  ref_run_rowid: number;
  ref_first: number | null;
  ref_last: number | null;
  cand_run_rowid: number;
  cand_first: number | null;
  cand_last: number | null;
  example_ids: Buffer;
  id_offsets: Buffer;
  ref_rowids: Buffer;
  cand_rowids: Buffer;
  flags: Buffer;
  classes: Buffer;
  deltas: Buffer;
  counts: string;
}

export function idAt(p: PairArrays, k: number): string {
  return p.ids.toString('utf8', p.offsets[k], p.offsets[k + 1]);
}

/** Id k against `id` (UTF-8) in byte order: < 0, 0 or > 0. */
export function compareIdAt(p: PairArrays, k: number, id: Buffer): number {
  return p.ids.compare(id, 0, id.length, p.offsets[k], p.offsets[k + 1]);
}

/** The first position whose id is not below `id` (UTF-8): binary search over the sorted ids. */
export function idLowerBound(p: PairArrays, id: Buffer): number {
  let lo = 0;
  let hi = p.rows;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIdAt(p, mid, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The position of an example id, or -1. */
export function findId(p: PairArrays, id: string): number {
  const bytes = Buffer.from(id, 'utf8');
  const k = idLowerBound(p, bytes);
  return k < p.rows && compareIdAt(p, k, bytes) === 0 ? k : -1;
}

/**
 * The positions in UTF-8 byte order, or null when the rows already are. Pairing sorts ids by
 * UTF-16 code units, which is the same order unless an id holds a character from U+D800 on
 * (a surrogate pair sorts below U+E000–U+FFFF in UTF-16, above it in UTF-8).
 */
function byteOrder(ids: PairIds): Int32Array | null {
  if (!/[\ud800-\uffff]/.test(ids.joined) && strictlyAscending(ids)) return null;
  const encoded = idList(ids).map((id) => Buffer.from(id, 'utf8'));
  return Int32Array.from(encoded.keys()).sort((a, b) => Buffer.compare(encoded[a]!, encoded[b]!));
}

function permuted(rows: PairRows, order: Int32Array): PairRows {
  const take = <T extends Float64Array | Uint8Array>(from: T): T => {
    const to = from.slice() as T;
    order.forEach((k, i) => (to[i] = from[k]!));
    return to;
  };
  const ids = idList(rows.ids);
  return {
    ...rows,
    ids: pairIdsOf(Array.from(order, (k) => ids[k]!)),
    refRowids: take(rows.refRowids),
    candRowids: take(rows.candRowids),
    flags: take(rows.flags),
    classes: rows.classes.map(take),
    deltas: rows.deltas.map(take),
  };
}

const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** A missing rowid in the narrow form that files saved by earlier versions may hold. */
const NO_ROWID_32 = 0xffffffff;

/**
 * Differences as Float32 when every one is exactly a float (counts, scores, yes/no: most
 * criteria), else as doubles; the array's byte length tells which. -0 is stored as 0: the explorer
 * orders them alike, as SQLite did.
 */
function deltaBytes(deltas: Float64Array): Buffer {
  const narrow = new Float32Array(deltas.length);
  let exact = true;
  for (let i = 0; i < deltas.length; i++) {
    if (deltas[i] === 0) deltas[i] = 0;
    narrow[i] = deltas[i]!;
    // NaN is the only value that differs from itself, and stays NaN as a float.
    if (narrow[i] !== deltas[i] && deltas[i] === deltas[i]) exact = false;
  }
  return bytesOf(exact ? narrow : deltas);
}

function concat<T extends Uint8Array | Float64Array>(
  parts: T[],
  n: number,
  make: (n: number) => T,
): T {
  const out = make(parts.length * n);
  parts.forEach((part, c) => out.set(part, c * n));
  return out;
}

/** A pair's rows as stored: its row's metadata and its file's arrays. */
export function encodePair(pairRows: PairRows): StoredPairArrays {
  const order = byteOrder(pairRows.ids);
  const rows = order ? permuted(pairRows, order) : pairRows;
  const { joined, ends } = rows.ids;
  const n = ends.length;
  const ids = Buffer.from(joined, 'utf8');
  const offsets = new Uint32Array(n + 1);
  if (ids.length === joined.length) offsets.set(ends, 1);
  else
    for (let k = 0; k < n; k++)
      offsets[k + 1] = offsets[k]! + Buffer.byteLength(pairIdAt(rows.ids, k), 'utf8');
  return {
    rows: n,
    criteria: JSON.stringify(rows.criteria),
    ref_run_rowid: rows.reference.runRowid,
    ref_first: rows.reference.firstRowid,
    ref_last: rows.reference.lastRowid,
    cand_run_rowid: rows.candidate.runRowid,
    cand_first: rows.candidate.firstRowid,
    cand_last: rows.candidate.lastRowid,
    example_ids: ids,
    id_offsets: bytesOf(offsets),
    ref_rowids: bytesOf(rows.refRowids),
    cand_rowids: bytesOf(rows.candRowids),
    flags: bytesOf(rows.flags),
    classes: bytesOf(concat(rows.classes, n, (size) => new Uint8Array(size))),
    deltas: deltaBytes(concat(rows.deltas, n, (size) => new Float64Array(size))),
    counts: JSON.stringify(pairCounts(rows)),
  };
}

type TypedArrayOf<T> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  BYTES_PER_ELEMENT: number;
};

function damaged(column: string): NotFoundError {
  return new NotFoundError(`The stored comparison is damaged (${column}): run it again.`);
}

/** A typed view of a stored array, copied first when its buffer is not aligned for it. */
function typed<T>(blob: Buffer, Type: TypedArrayOf<T>, length: number, column: string): T {
  if (blob.byteLength !== length * Type.BYTES_PER_ELEMENT) throw damaged(column);
  if (blob.byteOffset % Type.BYTES_PER_ELEMENT === 0)
    return new Type(blob.buffer as ArrayBuffer, blob.byteOffset, length);
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Type(copy.buffer, 0, length);
}

function side(runRowid: number, first: number | null, last: number | null): PairSide {
  return { runRowid, firstRowid: first, lastRowid: last };
}

/**
 * Rowids are stored as the doubles the explorer uses, so they are read as they lie. Files saved
 * before may hold them as Uint32 (when all fitted), widened here by two native passes.
 */
function rowidsOf(blob: Buffer, n: number, column: string): Float64Array {
  if (blob.byteLength !== n * 4) return typed(blob, Float64Array, n, column);
  const rowids = new Float64Array(n);
  rowids.set(typed(blob, Uint32Array, n, column));
  for (let k = rowids.indexOf(NO_ROWID_32); k >= 0; k = rowids.indexOf(NO_ROWID_32, k + 1))
    rowids[k] = NO_ROWID;
  return rowids;
}

function deltasOf(blob: Buffer, length: number): Float32Array | Float64Array {
  return blob.byteLength === length * 4 && length > 0
    ? typed(blob, Float32Array, length, 'deltas')
    : typed(blob, Float64Array, length, 'deltas');
}

/** A pair's `pair_arrays` row without its arrays. */
export type PairMeta = Omit<StoredPairArrays, PairSection>;

/** Where a pair's arrays come from: each one's byte length at once, its bytes when asked for. */
export interface PairSource {
  length(section: PairSection): number;
  read(section: PairSection): Buffer;
}

/** The arrays a stored pair holds, read in full (a test's, or a row's just encoded). */
export function sourceOf(stored: StoredPairArrays): PairSource {
  return { length: (section) => stored[section].length, read: (section) => stored[section] };
}

/** Defines `key` as read on first use, then kept as a plain value. */
function lazy<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get: () => {
      const value = make();
      Object.defineProperty(target, key, { value, enumerable: true });
      return value;
    },
  });
}

/** Every array's byte length against the row's count and criteria, before any is read. */
function checkLengths(source: PairSource, n: number, criteria: number): void {
  const fits = (section: PairSection, ...sizes: number[]) => {
    if (!sizes.includes(source.length(section))) throw damaged(section);
  };
  fits('id_offsets', 4 * (n + 1));
  fits('ref_rowids', 4 * n, 8 * n);
  fits('cand_rowids', 4 * n, 8 * n);
  fits('flags', n);
  fits('classes', criteria * n);
  fits('deltas', 4 * criteria * n, 8 * criteria * n);
}

/**
 * A pair's arrays, each read from `source` the first time it is used: the lengths are checked
 * at once, so a damaged pair is refused before any row is shown, and a query that needs only
 * flags and classes never reads the ids' neighbours or the differences.
 */
export function decodePair(meta: PairMeta, source: PairSource): PairArrays {
  const n = meta.rows;
  const criteria = JSON.parse(meta.criteria) as string[];
  checkLengths(source, n, criteria.length);
  const p = {
    rows: n,
    criteria,
    reference: side(meta.ref_run_rowid, meta.ref_first, meta.ref_last),
    candidate: side(meta.cand_run_rowid, meta.cand_first, meta.cand_last),
    counts: JSON.parse(meta.counts) as Record<string, number>,
  } as PairArrays;
  lazy(p, 'offsets', () => {
    const offsets = typed(source.read('id_offsets'), Uint32Array, n + 1, 'id_offsets');
    if (offsets[n] !== source.length('example_ids')) throw damaged('example_ids');
    return offsets;
  });
  lazy(p, 'ids', () => source.read('example_ids'));
  lazy(p, 'refRowids', () => rowidsOf(source.read('ref_rowids'), n, 'ref_rowids'));
  lazy(p, 'candRowids', () => rowidsOf(source.read('cand_rowids'), n, 'cand_rowids'));
  lazy(p, 'flags', () => typed(source.read('flags'), Uint8Array, n, 'flags'));
  lazy(p, 'classes', () => {
    const classes = typed(source.read('classes'), Uint8Array, criteria.length * n, 'classes');
    return criteria.map((_, c) => classes.subarray(c * n, (c + 1) * n));
  });
  lazy(p, 'deltas', () => {
    const deltas = deltasOf(source.read('deltas'), criteria.length * n);
    return criteria.map((_, c) => deltas.subarray(c * n, (c + 1) * n));
  });
  return p;
}

/** A pair the report does not have: no rows. */
export const EMPTY_PAIR: PairArrays = {
  rows: 0,
  criteria: [],
  reference: null,
  candidate: null,
  ids: Buffer.alloc(0),
  offsets: new Uint32Array(1),
  refRowids: new Float64Array(0),
  candRowids: new Float64Array(0),
  flags: new Uint8Array(0),
  classes: [],
  deltas: [],
  counts: {},
};
