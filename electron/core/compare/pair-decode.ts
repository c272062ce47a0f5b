import { NotFoundError } from '../errors';
import { NO_ROWID } from './codes';
import type { PairSide } from './compute';
import {
  idAt,
  type PairArrays,
  type RowCodes,
  type RowKeys,
  type StoredPairArrays,
} from './pair-arrays';
import type { ByteRange, PairSection, ReadEach, ScanSection } from './pair-files';

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
  scan: ScanSection<void>;
  readEach: ReadEach<void>;
}

/** The arrays of a stored pair held in memory (a test's, or a row's just encoded). */
export function sourceOf(stored: StoredPairArrays): PairSource {
  return {
    length: (section) => stored[section].length,
    read: (section) => stored[section],
    readRanges: (section, ranges) =>
      Buffer.concat(ranges.map(([from, to]) => stored[section].subarray(from, to))),
    scan: (section, chunk, overlap, visit) => scanBuffer(stored[section], chunk, overlap, visit),
    readEach: (section, ranges, chunk, visit) =>
      ranges.forEach(([from, to], i) => {
        const length = stored[section].copy(chunk, 0, from, to);
        visit(chunk.subarray(0, length), i);
      }),
  };
}

/** `ScanSection` over an array held in memory: each chunk copied, so a visitor may change it. */
export function scanBuffer(
  data: Buffer,
  chunk: Buffer,
  overlap: number,
  visit: (bytes: Buffer, at: number) => void,
): void {
  const step = chunk.length - overlap;
  if (step <= 0) throw new Error('A scan chunk must be longer than its overlap.');
  for (let at = 0; at < data.length; at += step) {
    const length = data.copy(chunk, 0, at, Math.min(data.length, at + chunk.length));
    visit(chunk.subarray(0, length), at);
    if (at + length === data.length) break;
  }
}

/** A scan's chunk (a multiple of 8): a few dozen pages, reused from one chunk to the next. */
const CHUNK_BYTES = 1 << 17;

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

/** Whether a pair's differences are stored as Float32 (else as doubles), by their length. */
function narrowDeltas(source: PairSource, length: number): boolean {
  return source.length('deltas') === length * 4 && length > 0;
}

function deltasOf(blob: Buffer, length: number, narrow: boolean): Float32Array | Float64Array {
  return narrow
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

/** The ids of rows `ks`, read from the file: first their offsets, then their bytes. */
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

/** The keys of rows `ks` on one side, read from the file in the width it holds them. */
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
 * A pair's arrays, each read from its source the first time it is used. A class with a field
 * per array, so the object's shape never changes as arrays are read: a property redefined on
 * first use changed it, and the explorer's loops compiled for the old shape were thrown away.
 */
class SourcedPair implements PairArrays {
  readonly rows: number;
  readonly criteria: string[];
  readonly reference: PairSide;
  readonly candidate: PairSide;
  readonly numberedIds: boolean;
  readonly counts: Record<string, number>;
  private offsetsRead: Uint32Array | null = null;
  private idsRead: Buffer | null = null;
  private refRead: Float64Array | null = null;
  private candRead: Float64Array | null = null;
  private flagsRead: Uint8Array | null = null;
  private classesRead: Uint8Array[] | null = null;
  private deltasRead: (Float32Array | Float64Array)[] | null = null;
  private criterionDeltasRead: (Float32Array | Float64Array | undefined)[] = [];
  private criterionClassesRead: (Uint8Array | undefined)[] = [];

  constructor(
    meta: PairMeta,
    private readonly source: PairSource,
    private readonly chunkBytes: number,
  ) {
    this.rows = meta.rows;
    this.criteria = JSON.parse(meta.criteria) as string[];
    checkLengths(source, this.rows, this.criteria.length);
    this.reference = side(meta.ref_run_rowid, meta.ref_first, meta.ref_last);
    this.candidate = side(meta.cand_run_rowid, meta.cand_first, meta.cand_last);
    this.numberedIds = meta.numbered_ids === 1;
    this.counts = JSON.parse(meta.counts) as Record<string, number>;
  }

  get offsets(): Uint32Array {
    if (!this.offsetsRead) {
      const n = this.rows;
      const offsets = typed(this.source.read('id_offsets'), Uint32Array, n + 1, 'id_offsets');
      if (offsets[n] !== this.source.length('example_ids')) throw damaged('example_ids');
      this.offsetsRead = offsets;
    }
    return this.offsetsRead;
  }

  get ids(): Buffer {
    return (this.idsRead ??= this.source.read('example_ids'));
  }

  get refRowids(): Float64Array {
    return (this.refRead ??= rowidsOf(this.source.read('ref_rowids'), this.rows, 'ref_rowids'));
  }

  get candRowids(): Float64Array {
    return (this.candRead ??= rowidsOf(this.source.read('cand_rowids'), this.rows, 'cand_rowids'));
  }

  get flags(): Uint8Array {
    return (this.flagsRead ??= typed(this.source.read('flags'), Uint8Array, this.rows, 'flags'));
  }

  get classes(): Uint8Array[] {
    if (!this.classesRead) {
      const n = this.rows;
      const all = typed(
        this.source.read('classes'),
        Uint8Array,
        this.criteria.length * n,
        'classes',
      );
      this.classesRead = this.criteria.map((_, c) => all.subarray(c * n, (c + 1) * n));
    }
    return this.classesRead;
  }

  get deltas(): (Float32Array | Float64Array)[] {
    if (!this.deltasRead) {
      const n = this.rows;
      const length = this.criteria.length * n;
      const all = deltasOf(this.source.read('deltas'), length, narrowDeltas(this.source, length));
      this.deltasRead = this.criteria.map((_, c) => all.subarray(c * n, (c + 1) * n));
    }
    return this.deltasRead;
  }

  deltaOf(c: number): Float32Array | Float64Array {
    if (this.deltasRead) return this.deltasRead[c]!;
    const n = this.rows;
    const narrow = narrowDeltas(this.source, this.criteria.length * n);
    const width = narrow ? 4 : 8;
    return (this.criterionDeltasRead[c] ??= deltasOf(
      this.source.readRanges('deltas', [[c * n * width, (c + 1) * n * width]]),
      n,
      narrow,
    ));
  }

  classOf(c: number): Uint8Array {
    if (this.classesRead) return this.classesRead[c]!;
    const n = this.rows;
    return (this.criterionClassesRead[c] ??= typed(
      this.source.readRanges('classes', [[c * n, (c + 1) * n]]),
      Uint8Array,
      n,
      'classes',
    ));
  }

  codesAt(ks: readonly number[]): RowCodes {
    const n = this.rows;
    const bytesAt = (read: Uint8Array | null | undefined, section: PairSection, base: number) =>
      read
        ? ks.map((k) => read[k]!)
        : Array.from(
            this.source.readRanges(
              section,
              ks.map((k) => [base + k, base + k + 1]),
            ),
          );
    return {
      flags: bytesAt(this.flagsRead, 'flags', 0),
      classes: this.criteria.map((_, c) =>
        bytesAt(this.classesRead?.[c] ?? this.criterionClassesRead[c], 'classes', c * n),
      ),
    };
  }

  eachKey(side: 'ref' | 'cand', visit: (keys: Float64Array, from: number) => void): void {
    const read = side === 'ref' ? this.refRead : this.candRead;
    const section = side === 'ref' ? 'ref_rowids' : 'cand_rowids';
    // Keys of earlier versions' narrow form are widened whole, as they always were.
    if (read || this.source.length(section) !== 8 * this.rows)
      return visit(side === 'ref' ? this.refRowids : this.candRowids, 0);
    this.source.scan(section, Buffer.allocUnsafeSlow(this.chunkBytes), 0, (bytes, at) =>
      visit(new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8), at / 8),
    );
  }

  eachDelta(
    c: number,
    backwards: boolean,
    visit: (deltas: Float32Array | Float64Array, from: number) => void,
  ): void {
    const whole = this.deltasRead?.[c] ?? this.criterionDeltasRead[c];
    if (whole) return visit(whole, 0);
    const n = this.rows;
    const narrow = narrowDeltas(this.source, this.criteria.length * n);
    const width = narrow ? 4 : 8;
    const step = this.chunkBytes / width;
    const starts: number[] = [];
    for (let k = 0; k < n; k += step) starts.push(k);
    if (backwards) starts.reverse();
    const base = c * n * width;
    this.source.readEach(
      'deltas',
      starts.map((k) => [base + k * width, base + Math.min(n, k + step) * width]),
      Buffer.allocUnsafeSlow(this.chunkBytes),
      (bytes, i) => {
        const { buffer, byteOffset, length } = bytes;
        visit(
          narrow
            ? new Float32Array(buffer, byteOffset, length / 4)
            : new Float64Array(buffer, byteOffset, length / 8),
          starts[i]!,
        );
      },
    );
  }

  eachIdChunk(overlap: number, visit: (ids: Buffer, at: number) => void): void {
    const chunk = Buffer.allocUnsafeSlow(Math.max(this.chunkBytes, 2 * overlap));
    if (this.idsRead) scanBuffer(this.idsRead, chunk, overlap, visit);
    else this.source.scan('example_ids', chunk, overlap, visit);
  }

  eachOffset(visit: (offsets: Uint32Array, from: number) => void): void {
    if (this.offsetsRead) return visit(this.offsetsRead, 0);
    // One offset of overlap: each chunk holds both ends of every id it begins.
    this.source.scan('id_offsets', Buffer.allocUnsafeSlow(this.chunkBytes), 4, (bytes, at) =>
      visit(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4), at / 4),
    );
  }

  rowsAt(ks: readonly number[]): RowKeys {
    const { source, rows: n } = this;
    return {
      ids: this.idsRead && this.offsetsRead ? ks.map((k) => idAt(this, k)) : idsFrom(source, ks),
      ref: this.refRead
        ? ks.map((k) => this.refRead![k]!)
        : rowidsFrom(source, 'ref_rowids', n, ks),
      cand: this.candRead
        ? ks.map((k) => this.candRead![k]!)
        : rowidsFrom(source, 'cand_rowids', n, ks),
    };
  }
}

/**
 * A pair's arrays, each read from `source` the first time it is used: the lengths are checked
 * at once, so a damaged pair is refused before any row is shown, and a query that needs only
 * flags and classes never reads the ids, the keys or the differences.
 */
export function decodePair(
  meta: PairMeta,
  source: PairSource,
  chunkBytes = CHUNK_BYTES,
): PairArrays {
  return new SourcedPair(meta, source, chunkBytes);
}
