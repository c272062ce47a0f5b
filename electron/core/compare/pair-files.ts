import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../db/open';
import type { StoredPairArrays } from './pair-arrays';

/**
 * A pair's big arrays live in one file beside the library (`<library>.pairs/`), addressed from
 * its `pair_arrays` row, because SQLite reads a large BLOB one overflow page at a time: 38 MB at a
 * million examples took ~70 ms of system time to SELECT, one read of the file ~10 ms. The row
 * keeps the small metadata and the file's name and size; a file whose size, magic or section
 * lengths do not match its row is treated as missing (docs/architecture.md, "Pair files").
 */

/** The arrays of a row in file order; each section starts on an 8-byte boundary. */
const SECTIONS = [
  'example_ids',
  'id_offsets',
  'ref_rowids',
  'cand_rowids',
  'flags',
  'classes',
  'deltas',
] as const;
export type PairSection = (typeof SECTIONS)[number];

const MAGIC = Buffer.from('PWPAIRS1', 'latin1');
const HEADER_BYTES = 40;
const ALIGN = 8;
const FILE_NAME = /^r\d+-p\d+-[0-9a-f]{16}\.pair(\.tmp)?$/;

/** In-memory libraries (tests) keep their files in a temp folder of their own, removed at exit. */
const memoryDirs = new WeakMap<Db, string>();
const libraryFiles = new WeakMap<Db, string>();
const tempDirs: string[] = [];

/**
 * Names the library file of a connection whose `name` is not it (a read-only library opened
 * from an in-memory copy of its file), so its pair files are still found.
 */
export function setLibraryFile(db: Db, file: string): void {
  libraryFiles.set(db, path.resolve(file));
}

export function pairDir(db: Db): string {
  const file = libraryFiles.get(db) ?? (db.memory ? null : db.name);
  if (file) return `${path.resolve(file)}.pairs`;
  let dir = memoryDirs.get(db);
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-pairs-'));
    if (tempDirs.length === 0) process.once('exit', removeTempDirs);
    tempDirs.push(dir);
    memoryDirs.set(db, dir);
  }
  return dir;
}

function removeTempDirs(): void {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
}

const padding = (length: number) => (ALIGN - (length % ALIGN)) % ALIGN;

/**
 * Writes the pair's arrays under a temp name and renames it into place, so a file with its
 * final name is always whole; the caller inserts the row that names it before committing (a
 * crash in between leaves an orphan, swept at the next open). Returns the name and size.
 */
export function writePairFile(
  db: Db,
  reportId: number,
  pair: number,
  stored: StoredPairArrays,
): { file: string; bytes: number } {
  const dir = pairDir(db);
  fs.mkdirSync(dir, { recursive: true });
  const file = `r${reportId}-p${pair}-${randomBytes(8).toString('hex')}.pair`;
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header);
  const parts: Buffer[] = [header];
  SECTIONS.forEach((name, i) => {
    const section = stored[name];
    header.writeUInt32LE(section.length, MAGIC.length + 4 * i);
    parts.push(section, Buffer.alloc(padding(section.length)));
  });
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  const temp = path.join(dir, `${file}.tmp`);
  const fd = fs.openSync(temp, 'w');
  try {
    const written = fs.writevSync(fd, parts);
    // A short write is rare on a regular file; the rest goes out in plain writes.
    if (written < bytes) {
      const rest = Buffer.concat(parts).subarray(written);
      for (let at = 0; at < rest.length;) at += fs.writeSync(fd, rest, at);
    }
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, path.join(dir, file));
  return { file, bytes };
}

/**
 * Where each section lies in a file of `size` bytes whose header is `header`, or null when the
 * magic or the section lengths do not match the size.
 */
function layout(header: Buffer, size: number): Record<PairSection, [number, number]> | null {
  if (header.length < HEADER_BYTES || !header.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const spans = {} as Record<PairSection, [number, number]>;
  let at = HEADER_BYTES;
  for (const [i, name] of SECTIONS.entries()) {
    const length = header.readUInt32LE(MAGIC.length + 4 * i);
    spans[name] = [at, at + length];
    at += length + padding(length);
  }
  return at === size ? spans : null;
}

/** A byte range [from, to) of one array. */
export type ByteRange = readonly [number, number];

/**
 * An opened pair file: each array's byte length from its header, a read of one whole array,
 * and a read of a few ranges of one (a page's rows) in one opening of the file. Both give null
 * once the file is gone or is not the one opened (its size changed).
 */
export interface PairFile {
  lengths: Record<PairSection, number>;
  read(section: PairSection): Buffer | null;
  /** The ranges' bytes one after another; a range outside the array throws. */
  readRanges(section: PairSection, ranges: readonly ByteRange[]): Buffer | null;
  /** One array a chunk at a time, in one opening of the file (`ScanSection`); false when gone. */
  scan: ScanSection<boolean>;
  /** Ranges of one array one at a time, in one opening of the file (`ReadEach`); false when gone. */
  readEach: ReadEach<boolean>;
}

/**
 * Passes one array's bytes to `visit` in order, a chunk at a time, each read into `chunk` (the
 * visitor may change it), so a pass over every row's value takes no fresh memory of the array's
 * size. Each chunk after the first begins `overlap` bytes before the one before it ended, so
 * what lies across their seam is whole in one of them; `at` is the chunk's offset in the array.
 */
export type ScanSection<T> = (
  section: PairSection,
  chunk: Buffer,
  overlap: number,
  visit: (bytes: Buffer, at: number) => void,
) => T;

/**
 * Passes each range's bytes to `visit` in the order given, each read into the start of `chunk`
 * (no longer than it; the visitor may change it), with the range's index: a pass over part of
 * an array in any order (one criterion's differences, from its last rows for a descending walk)
 * without fresh memory of its size.
 */
export type ReadEach<T> = (
  section: PairSection,
  ranges: readonly ByteRange[],
  chunk: Buffer,
  visit: (bytes: Buffer, i: number) => void,
) => T;

/** Reads `length` bytes at `position` into `data` from `offset` on. */
function readInto(fd: number, data: Buffer, offset: number, position: number, length: number) {
  for (let at = 0; at < length;) {
    const read = fs.readSync(fd, data, offset + at, length - at, position + at);
    if (read === 0) throw new Error('The pair file ended early.');
    at += read;
  }
}

/** Reads `length` bytes at `position` into a buffer of its own (aligned for any typed array). */
function readSpan(fd: number, position: number, length: number): Buffer {
  const data = Buffer.allocUnsafeSlow(length);
  readInto(fd, data, 0, position, length);
  return data;
}

/**
 * Files up to this size are read whole when opened: one read costs less than the few openings
 * of the file that reading their arrays one by one takes (on the real-data library, whose
 * pairs are small, a first page's median went from ~0.12 to ~0.16 ms that way).
 */
const READ_WHOLE_BYTES = 1 << 20;

/** Copies `length` bytes at `position` of the file into `data` from `offset` on. */
type Copy = (data: Buffer, offset: number, position: number, length: number) => void;
/** `use` with a `Copy` from an opened file, or null when it is gone. */
type Copying = <T>(use: (copy: Copy) => T) => T | null;

/** `PairFile.readEach` of a file whose sections lie at `spans`. */
function readEachOf(
  spans: Record<PairSection, [number, number]>,
  copying: Copying,
): ReadEach<boolean> {
  return (section, ranges, chunk, visit) => {
    const [from, to] = spans[section];
    for (const [start, end] of ranges)
      if (start < 0 || end < start || end - start > chunk.length || from + end > to)
        throw new Error(`A row range lies outside the pair file's ${section} or its chunk.`);
    return (
      copying((copy) => {
        ranges.forEach(([start, end], i) => {
          copy(chunk, 0, from + start, end - start);
          visit(chunk.subarray(0, end - start), i);
        });
        return true;
      }) === true
    );
  };
}

/**
 * Opens a pair file by its header alone (a small one whole); its arrays are read when first
 * asked for, so a query reads only what it uses (a filter on a class needs neither the
 * differences nor the other criteria's sort orders). Null when the file is missing, or its
 * size, magic or section lengths do not match what its row says. The file never changes under
 * its name (a saved file is renamed into place whole and only ever removed), so a later read is
 * of the same bytes or fails.
 */
export function openPairFile(
  db: Db,
  file: string,
  bytes: number,
  readWholeBytes = READ_WHOLE_BYTES,
): PairFile | null {
  if (!FILE_NAME.test(file)) return null;
  const where = path.join(pairDir(db), file);
  const opened = withFile(where, bytes, (fd) => {
    const head = readSpan(fd, 0, bytes <= readWholeBytes ? bytes : HEADER_BYTES);
    const spans = layout(head, bytes);
    return spans && { spans, whole: head.length === bytes ? head : null };
  });
  if (!opened) return null;
  const { spans, whole } = opened;
  const lengths = {} as Record<PairSection, number>;
  for (const name of SECTIONS) lengths[name] = spans[name][1] - spans[name][0];
  const copying: Copying = (use) =>
    whole
      ? use((data, offset, position, length) =>
          whole.copy(data, offset, position, position + length),
        )
      : withFile(where, bytes, (fd) => use((...args) => readInto(fd, ...args)));
  const readEach = readEachOf(spans, copying);
  return {
    lengths,
    read: (section) => {
      const [from, to] = spans[section];
      if (whole) return whole.subarray(from, to);
      return withFile(where, bytes, (fd) => readSpan(fd, from, to - from));
    },
    readRanges: (section, ranges) => {
      const [from, to] = spans[section];
      let total = 0;
      for (const [start, end] of ranges) {
        if (start < 0 || end < start || from + end > to)
          throw new Error(`A row range lies outside the pair file's ${section}.`);
        total += end - start;
      }
      const data = Buffer.allocUnsafe(total);
      // An empty page asks for no rows: nothing to open the file for.
      if (ranges.length === 0) return data;
      return copying((copy) => {
        let at = 0;
        for (let i = 0; i < ranges.length;) {
          const j = closeRangesFrom(ranges, i);
          if (j === i + 1) {
            const [start, end] = ranges[i]!;
            copy(data, at, from + start, end - start);
            at += end - start;
          } else {
            // One read for ranges close together (a first page's rows in id order, say).
            const base = ranges[i]![0];
            const span = Buffer.allocUnsafe(ranges[j - 1]![1] - base);
            copy(span, 0, from + base, span.length);
            for (let r = i; r < j; r++)
              at += span.copy(data, at, ranges[r]![0] - base, ranges[r]![1] - base);
          }
          i = j;
        }
        return data;
      });
    },
    scan: (section, chunk, overlap, visit) => {
      const ranges = chunkRanges(lengths[section], chunk.length, overlap);
      return readEach(section, ranges, chunk, (bytes, i) => visit(bytes, ranges[i]![0]));
    },
    readEach,
  };
}

/**
 * The ranges a scan of an array `length` bytes long reads: chunks of `size` bytes, each after
 * the first beginning `overlap` bytes before the one before it ended.
 */
function chunkRanges(length: number, size: number, overlap: number): ByteRange[] {
  const step = size - overlap;
  if (step <= 0) throw new Error('A scan chunk must be longer than its overlap.');
  const ranges: ByteRange[] = [];
  for (let at = 0; at < length; at += step) {
    ranges.push([at, Math.min(length, at + size)]);
    if (at + size >= length) break;
  }
  return ranges;
}

/** Ranges this close to the one before are read with it, the bytes between read and dropped. */
const CLOSE_BYTES = 512;

/**
 * The end of the run of ranges from i on that each begin at or after the one before and at most
 * CLOSE_BYTES past the run's end so far, which then ends the run's read.
 */
function closeRangesFrom(ranges: readonly ByteRange[], i: number): number {
  let end = ranges[i]![1];
  let j = i + 1;
  for (; j < ranges.length; j++) {
    const [start, stop] = ranges[j]!;
    if (start < ranges[j - 1]![0] || start > end + CLOSE_BYTES || stop < end) break;
    end = stop;
  }
  return j;
}

/** `use` on the file opened for reading, or null when it is missing, not `bytes` long or unreadable. */
function withFile<T>(where: string, bytes: number, use: (fd: number) => T | null): T | null {
  let fd: number;
  try {
    fd = fs.openSync(where, 'r');
  } catch {
    return null;
  }
  try {
    return fs.fstatSync(fd).size === bytes ? use(fd) : null;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether a pair file is there with its row's size and a sound header, without its arrays. */
export function pairFileIntact(db: Db, file: string, bytes: number): boolean {
  return openPairFile(db, file, bytes, 0) !== null;
}

/**
 * Removes pair files whose rows are gone. Best effort: a file that cannot be removed (a
 * read-only location) stays and is tried again next time.
 */
export function removePairFiles(db: Db, files: Iterable<string>): void {
  const dir = pairDir(db);
  for (const file of files) {
    if (!FILE_NAME.test(file)) continue;
    try {
      fs.rmSync(path.join(dir, file), { force: true });
    } catch {
      // Left for the next sweep.
    }
  }
}

/**
 * Files younger than this are left to the sweep after: another process (the app and a CLI on
 * one library) may be between writing one and committing the row that names it.
 */
const SWEEP_AFTER_MS = 10 * 60 * 1000;

/**
 * Removes the files no row names: left by a crash between a file's rename and its row's commit,
 * by a save in progress when the process died, or by SQL that deleted rows (a migration). Run
 * when the library opens, before any comparison can be saving; returns how many it removed.
 */
export function sweepPairFiles(db: Db, now = Date.now()): number {
  const dir = pairDir(db);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  const kept = new Set(db.prepare(`SELECT file FROM pair_arrays`).pluck().all() as string[]);
  const orphans = names.filter((name) => {
    if (!FILE_NAME.test(name) || kept.has(name)) return false;
    try {
      return now - fs.statSync(path.join(dir, name)).mtimeMs >= SWEEP_AFTER_MS;
    } catch {
      return false;
    }
  });
  removePairFiles(db, orphans);
  return orphans.length;
}
