import type { PairRows, PairSide } from './compute';
import { pairCounts } from './counts';
import { compareIdBytes, idOrderOf } from './id-order';
import { pairIdAt, type PairIds } from './pair-ids';

/**
 * A compared pair's explorer data: one row of `pair_arrays` and its file (pair-files.ts), every
 * per-example value in a typed array indexed by the example's position k. Positions follow the
 * example ids in the explorer's id order (id-order.ts: UTF-8 byte order, numbered ids by
 * number), its tie-break, so "by example id" is "by k".
 * Arrays are stored in the machine's byte order (little-endian everywhere Pairwise runs).
 */
export interface PairArrays {
  rows: number;
  /** The pair's criteria in the report's order; classes and deltas follow it. */
  criteria: string[];
  reference: PairSide | null;
  candidate: PairSide | null;
  /** Whether the ids are numbered (id-order.ts), so ordered by number: length first, then bytes. */
  numberedIds: boolean;
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
  /** deltas[c] alone, read without the other criteria's (a sort needs one criterion's). */
  deltaOf(c: number): Float32Array | Float64Array;
  /** classes[c] alone, read without the other criteria's (a class filter on one criterion). */
  classOf(c: number): Uint8Array;
  /**
   * A few rows' flags and classes under every criterion (a page's), from the arrays once read,
   * else read row by row from the pair's file, as for `rowsAt`.
   */
  codesAt(ks: readonly number[]): RowCodes;
  /** Rows matching each one-condition filter (counts.ts keys). */
  counts: Record<string, number>;
  /**
   * A few rows' ids and keys (a page's): from the arrays above once a query has read them,
   * else read row by row from the pair's file, as a first page needs 200 rows of a million.
   */
  rowsAt(ks: readonly number[]): RowKeys;
  /**
   * Passes over every row that need each value once (a search's marks), a chunk of rows at a
   * time through one small buffer, unless the array was read whole already: at a million rows
   * each side's keys are 8 MB and the ids several more, whose first touch cost more than the
   * pass. Chunks hold rows from..from + length - 1. eachIdChunk gives the ids' bytes from
   * offset `at`, consecutive chunks sharing `overlap` bytes; eachOffset's chunks share one
   * offset, so each holds both ends of the ids it begins.
   */
  eachKey(side: 'ref' | 'cand', visit: (keys: Float64Array, from: number) => void): void;
  eachIdChunk(overlap: number, visit: (ids: Buffer, at: number) => void): void;
  eachOffset(visit: (offsets: Uint32Array, from: number) => void): void;
  /**
   * One criterion's differences the same way, chunk by chunk from the first rows or, backwards,
   * from the last (a descending walk's order): a first page sorted by them reads each once, and
   * reading them whole (4 MB a criterion at a million rows) cost more in first touching fresh
   * memory than the pass over them.
   */
  eachDelta(
    c: number,
    backwards: boolean,
    visit: (deltas: Float32Array | Float64Array, from: number) => void,
  ): void;
}

/** Rows' flags, and their classes per criterion (classes[c][i]), in the order asked for. */
export interface RowCodes {
  flags: number[];
  classes: number[][];
}

/** Rows' example ids and each side's key, in the order asked for. */
export interface RowKeys {
  ids: string[];
  ref: number[];
  cand: number[];
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
  /** 1 when the rows are in numbered ids' order (id-order.ts), 0 for byte order. */
  numbered_ids: number;
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

/** Id k against `id` (UTF-8) in the pair's id order: < 0, 0 or > 0. */
export function compareIdAt(p: PairArrays, k: number, id: Buffer): number {
  return compareIdBytes(p.ids, p.offsets[k]!, p.offsets[k + 1]!, id, p.numberedIds);
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

/** A pair's ids as its file holds them, and the order that puts its rows in theirs. */
interface StoredIds {
  /** The positions in the explorer's id order, or null when the rows already are. */
  order: Int32Array | null;
  numbered: boolean;
  ids: Buffer;
  offsets: Uint32Array;
}

/**
 * Stored ids made before, by the ids' end offsets: when both runs hold the same ids, a pair's ids
 * are one run's own (columnar/rows.ts), which a compare worker keeps from one comparison to the
 * next, so a new pairing of the same runs (another reference) neither checks a million ids'
 * order again nor encodes them again.
 */
const keptIds = new WeakMap<Uint32Array, { joined: string; stored: StoredIds }>();

function storedIds(ids: PairIds): StoredIds {
  const known = keptIds.get(ids.ends);
  if (known && known.joined === ids.joined) return known.stored;
  const { order, numbered } = idOrderOf(ids);
  const encoded = utf8Ids(ids);
  const stored = { order, numbered, ...(order ? reordered(encoded, order) : encoded) };
  keptIds.set(ids.ends, { joined: ids.joined, stored });
  return stored;
}

function utf8Ids({ joined, ends }: PairIds): { ids: Buffer; offsets: Uint32Array } {
  const n = ends.length;
  const ids = Buffer.from(joined, 'utf8');
  const offsets = new Uint32Array(n + 1);
  if (ids.length === joined.length) offsets.set(ends, 1);
  else
    for (let k = 0; k < n; k++)
      offsets[k + 1] = offsets[k]! + Buffer.byteLength(pairIdAt({ joined, ends }, k), 'utf8');
  return { ids, offsets };
}

/**
 * The ids' bytes and offsets in `order`, copied byte by byte: a string per id and a join of a
 * million of them took most of a second when numbered ids were put in order.
 */
function reordered(
  { ids, offsets }: { ids: Buffer; offsets: Uint32Array },
  order: Int32Array,
): { ids: Buffer; offsets: Uint32Array } {
  const n = order.length;
  const to = Buffer.allocUnsafe(ids.length);
  const at = new Uint32Array(n + 1);
  let end = 0;
  for (let i = 0; i < n; i++) {
    const k = order[i]!;
    const stop = offsets[k + 1]!;
    for (let b = offsets[k]!; b < stop; b++) to[end++] = ids[b]!;
    at[i + 1] = end;
  }
  return { ids: to, offsets: at };
}

function permuted(rows: PairRows, order: Int32Array): PairRows {
  const take = <T extends Float64Array | Uint8Array>(from: T): T => {
    const to = from.slice(0, 0) as T;
    const out = new (to.constructor as new (length: number) => T)(order.length);
    for (let i = 0; i < order.length; i++) out[i] = from[order[i]!]!;
    // Differences known to be exact floats stay known, so they are stored without a check each.
    if (from instanceof Float64Array && narrowDeltas.has(from))
      narrowDeltas.add(out as Float64Array);
    return out;
  };
  return {
    ...rows,
    refRowids: take(rows.refRowids),
    candRowids: take(rows.candRowids),
    flags: take(rows.flags),
    classes: rows.classes.map(take),
    deltas: rows.deltas.map(take),
  };
}

const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Differences known, by whoever made them, to be exact as floats and never -0 (a columnar
 * criterion checks each as it computes it): stored by a native conversion, without a pass of
 * their own.
 */
const narrowDeltas = new WeakSet<Float64Array>();

export function knownNarrow(deltas: Float64Array): Float64Array {
  narrowDeltas.add(deltas);
  return deltas;
}

/**
 * Differences as Float32 when every one is exactly a float (counts, scores, yes/no: most
 * criteria), else as doubles; the array's byte length tells which. -0 is stored as 0: the explorer
 * orders them alike, as SQLite did. Read from each criterion's own array, so the common Float32
 * case never builds the criteria's doubles end to end (8 bytes a row per criterion).
 */
function deltaBytes(parts: Float64Array[], n: number): Buffer {
  const narrow = new Float32Array(parts.length * n);
  if (parts.every((part) => narrowDeltas.has(part))) {
    parts.forEach((part, c) => narrow.set(part, c * n));
    return bytesOf(narrow);
  }
  for (let c = 0; c < parts.length; c++) {
    const part = parts[c]!;
    const base = c * n;
    for (let k = 0; k < n; k++) {
      const d = part[k]!;
      const f = Math.fround(d);
      // NaN is the only value that differs from itself, and stays NaN as a float.
      if (f !== d && d === d) return bytesOf(wideDeltas(parts, n));
      narrow[base + k] = d === 0 ? 0 : f;
    }
  }
  return bytesOf(narrow);
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

function wideDeltas(parts: Float64Array[], n: number): Float64Array {
  const wide = concat(parts, n, (size) => new Float64Array(size));
  for (let i = 0; i < wide.length; i++) if (wide[i] === 0) wide[i] = 0;
  return wide;
}

/** A pair's rows as stored: its row's metadata and its file's arrays. */
export function encodePair(pairRows: PairRows): StoredPairArrays {
  const { order, numbered, ids, offsets } = storedIds(pairRows.ids);
  const rows = order ? permuted(pairRows, order) : pairRows;
  const n = pairRows.ids.ends.length;
  return {
    rows: n,
    criteria: JSON.stringify(rows.criteria),
    ref_run_rowid: rows.reference.runRowid,
    ref_first: rows.reference.firstRowid,
    ref_last: rows.reference.lastRowid,
    cand_run_rowid: rows.candidate.runRowid,
    cand_first: rows.candidate.firstRowid,
    cand_last: rows.candidate.lastRowid,
    numbered_ids: numbered ? 1 : 0,
    example_ids: ids,
    id_offsets: bytesOf(offsets),
    ref_rowids: bytesOf(rows.refRowids),
    cand_rowids: bytesOf(rows.candRowids),
    flags: bytesOf(rows.flags),
    classes: bytesOf(concat(rows.classes, n, (size) => new Uint8Array(size))),
    deltas: deltaBytes(rows.deltas, n),
    counts: JSON.stringify(pairCounts(rows)),
  };
}

/** A pair the report does not have: no rows. */
export const EMPTY_PAIR: PairArrays = {
  rows: 0,
  criteria: [],
  reference: null,
  candidate: null,
  numberedIds: false,
  ids: Buffer.alloc(0),
  offsets: new Uint32Array(1),
  refRowids: new Float64Array(0),
  candRowids: new Float64Array(0),
  flags: new Uint8Array(0),
  classes: [],
  deltas: [],
  deltaOf: () => new Float64Array(0),
  classOf: () => new Uint8Array(0),
  codesAt: () => ({ flags: [], classes: [] }),
  counts: {},
  rowsAt: () => ({ ids: [], ref: [], cand: [] }),
  eachKey: () => undefined,
  eachIdChunk: () => undefined,
  eachDelta: () => undefined,
  eachOffset: (visit) => visit(new Uint32Array(1), 0),
};
