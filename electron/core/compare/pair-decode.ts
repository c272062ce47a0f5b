import { NotFoundError } from '../errors';
import { NO_ROWID } from './codes';
import type { PairSide } from './compute';
import { idAt, type PairArrays, type RowKeys, type StoredPairArrays } from './pair-arrays';
import type { ByteRange, PairSection } from './pair-files';

/** A pair's `pair_arrays` row without its arrays. */
export type PairMeta = Omit<StoredPairArrays, PairSection>;

/**
 * Where a pair's arrays come from: each one's byte length at once, its bytes when asked for,
 * or only some ranges of it (the ranges' bytes one after another).
 */
export interface PairSource {
  length(section: PairSection): number;
  read(section: PairSection): Buffer;
  readRanges(section: PairSection, ranges: readonly ByteRange[]): Buffer;
}

/** The arrays of a stored pair held in memory (a test's, or a row's just encoded). */
export function sourceOf(stored: StoredPairArrays): PairSource {
  return {
    length: (section) => stored[section].length,
    read: (section) => stored[section],
    readRanges: (section, ranges) =>
      Buffer.concat(ranges.map(([from, to]) => stored[section].subarray(from, to))),
  };
}

/** A missing rowid in the narrow form that files saved by earlier versions may hold. */
const NO_ROWID_32 = 0xffffffff;

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
 * by earlier versions may hold them as Uint32 (when all fitted), widened here by two native
 * passes: a converting copy, then a search for the missing ones.
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

/** Rows k's ids, read from the file: first their offsets, then their bytes. */
function idsFrom(source: PairSource, ks: readonly number[]): string[] {
  const offsets = source.readRanges(
    'id_offsets',
    ks.map((k) => [4 * k, 4 * k + 8]),
  );
  const size = source.length('example_ids');
  const spans = ks.map((_, i): ByteRange => {
    const from = offsets.readUInt32LE(8 * i);
    const to = offsets.readUInt32LE(8 * i + 4);
    if (from > to || to > size) throw damaged('id_offsets');
    return [from, to];
  });
  const bytes = source.readRanges('example_ids', spans);
  let at = 0;
  return spans.map(([from, to]) => bytes.toString('utf8', at, (at += to - from)));
}

/** Rows k's keys on one side, read from the file in the width it holds them. */
function rowidsFrom(
  source: PairSource,
  section: PairSection,
  n: number,
  ks: readonly number[],
): number[] {
  const wide = source.length(section) === 8 * n;
  const width = wide ? 8 : 4;
  const data = source.readRanges(
    section,
    ks.map((k) => [width * k, width * (k + 1)]),
  );
  return ks.map((_, i) => {
    if (wide) return data.readDoubleLE(8 * i);
    const rowid = data.readUInt32LE(4 * i);
    return rowid === NO_ROWID_32 ? NO_ROWID : rowid;
  });
}

/**
 * A pair's arrays, each read from `source` the first time it is used: the lengths are checked
 * at once, so a damaged pair is refused before any row is shown, and a query that needs only
 * flags and classes never reads the ids, the keys or the differences.
 */
export function decodePair(meta: PairMeta, source: PairSource): PairArrays {
  const n = meta.rows;
  const criteria = JSON.parse(meta.criteria) as string[];
  checkLengths(source, n, criteria.length);
  const read = new Set<keyof PairArrays>();
  const p = {
    rows: n,
    criteria,
    reference: side(meta.ref_run_rowid, meta.ref_first, meta.ref_last),
    candidate: side(meta.cand_run_rowid, meta.cand_first, meta.cand_last),
    counts: JSON.parse(meta.counts) as Record<string, number>,
    rowsAt: (ks: readonly number[]): RowKeys => ({
      ids: read.has('ids') && read.has('offsets') ? ks.map((k) => idAt(p, k)) : idsFrom(source, ks),
      ref: read.has('refRowids')
        ? ks.map((k) => p.refRowids[k]!)
        : rowidsFrom(source, 'ref_rowids', n, ks),
      cand: read.has('candRowids')
        ? ks.map((k) => p.candRowids[k]!)
        : rowidsFrom(source, 'cand_rowids', n, ks),
    }),
  } as PairArrays;
  /** Defines `key` as read on first use, then kept as a plain value. */
  const lazy = <K extends keyof PairArrays>(key: K, make: () => PairArrays[K]) =>
    Object.defineProperty(p, key, {
      configurable: true,
      enumerable: true,
      get: () => {
        const value = make();
        Object.defineProperty(p, key, { value, enumerable: true });
        read.add(key);
        return value;
      },
    });
  lazy('offsets', () => {
    const offsets = typed(source.read('id_offsets'), Uint32Array, n + 1, 'id_offsets');
    if (offsets[n] !== source.length('example_ids')) throw damaged('example_ids');
    return offsets;
  });
  lazy('ids', () => source.read('example_ids'));
  lazy('refRowids', () => rowidsOf(source.read('ref_rowids'), n, 'ref_rowids'));
  lazy('candRowids', () => rowidsOf(source.read('cand_rowids'), n, 'cand_rowids'));
  lazy('flags', () => typed(source.read('flags'), Uint8Array, n, 'flags'));
  lazy('classes', () => {
    const classes = typed(source.read('classes'), Uint8Array, criteria.length * n, 'classes');
    return criteria.map((_, c) => classes.subarray(c * n, (c + 1) * n));
  });
  lazy('deltas', () => {
    const deltas = deltasOf(source.read('deltas'), criteria.length * n);
    return criteria.map((_, c) => deltas.subarray(c * n, (c + 1) * n));
  });
  return p;
}
