import type { Hash } from 'node:crypto';
import fs from 'node:fs';
import { formatCount } from '../../../shared/format';
import { ImportProblem } from './types';

/**
 * The layout of a JSON object document too large to hold as one string: where each top-level
 * member's value lies, and for one array-valued member the byte ranges of its elements in
 * batches. Found by one pass over the bytes in chunks (strings and their escapes skipped with
 * memchr), so memory stays at a chunk whatever the file's size; the values themselves are
 * left to JSON.parse, batch by batch, which also finds any syntax error inside them.
 */
export interface JsonLayout {
  /** Every member but the streamed array: its key and the byte range of its value. */
  members: { key: string; valueStart: number; valueEnd: number }[];
  /** The streamed array (the last member with that key, as JSON.parse keeps the last). */
  array: ArrayLayout | null;
  /**
   * How deep the document nests, the top-level object being 1: each bracket the scan passes
   * outside a string opens or closes a level, as it does for JSON.parse on any part it accepts.
   */
  maxDepth: number;
}

export interface ArrayLayout {
  elements: number;
  /** Batches of whole elements: bytes [start, end) hold elements from `first` on. */
  batches: { start: number; end: number; first: number }[];
}

const CHUNK_BYTES = 8 * 1024 ** 2;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function describeByte(byte: number): string {
  return byte >= 0x20 && byte < 0x7f
    ? `'${String.fromCharCode(byte)}'`
    : `byte 0x${byte.toString(16)}`;
}

type State = 'start' | 'key' | 'colon' | 'value' | 'after';

/**
 * Returns the layout, or null when the document is not a JSON object (another reader's job).
 * One function on purpose: it is a byte-level state machine run over files of hundreds of MB,
 * and its state (depth, string, escape, key) lives in locals the loop updates per byte; split
 * into calls, that state would have to travel through objects on every byte.
 */
// eslint-disable-next-line max-lines-per-function -- a per-byte state machine, whole on purpose
export function scanJsonObject(
  fd: number,
  size: number,
  arrayKey: string,
  batchBytes: number,
  /** Fed every byte of the file in order, so that it need not be read again for its hash. */
  hash?: Hash,
): JsonLayout | null {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const layout: JsonLayout = { members: [], array: null, maxDepth: 0 };
  let state: State = 'start';
  let depth = 0;
  let inString = false;
  let backslashes = 0;
  let keyStart = -1;
  let valueStart = -1;
  let streaming: ArrayLayout | null = null;
  let elementHasContent = false;
  let arrayClosed = false;
  let key = '';

  const fail = (offset: number, reason: string): never => {
    throw new ImportProblem(`${positionOf(fd, offset)}: ${reason}`);
  };
  const endMember = (end: number) => {
    if (key === arrayKey) {
      layout.array = streaming;
      layout.members = layout.members.filter((m) => m.key !== arrayKey);
    }
    if (!streaming) layout.members.push({ key, valueStart, valueEnd: end });
    streaming = null;
    arrayClosed = false;
  };

  for (let base = 0; base < size;) {
    const length = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - base), base);
    if (length === 0) break;
    const bytes = chunk.subarray(0, length);
    hash?.update(bytes);
    let i = 0;
    while (i < length) {
      if (inString) {
        // Jump to the next quote; it ends the string unless an odd run of backslashes escapes it.
        const quote = bytes.indexOf(QUOTE, i);
        const stop = quote === -1 ? length : quote;
        let run = 0;
        for (let k = stop - 1; k >= i && bytes[k] === BACKSLASH; k--) run++;
        if (run === stop - i) run += backslashes;
        if (quote === -1) {
          backslashes = run;
          i = length;
          continue;
        }
        backslashes = 0;
        i = quote + 1;
        if (run % 2 === 1) continue;
        inString = false;
        if (state === 'key') {
          key = parseKey(readRange(fd, keyStart, base + i), () =>
            fail(keyStart, 'a property name that is not a valid JSON string'),
          );
          state = 'colon';
        }
        continue;
      }
      const byte = bytes[i]!;
      const at = base + i;
      i++;
      if (isSpace(byte)) continue;
      if (state === 'start') {
        if (at === 0 && byte === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
          i += 2;
          continue;
        }
        if (byte !== 0x7b) return null;
        depth = layout.maxDepth = 1;
        state = 'key';
        continue;
      }
      if (state === 'after') fail(at, `unexpected ${describeByte(byte)} after the end of the JSON`);
      if (state === 'key') {
        if (byte === 0x7d && layout.members.length === 0 && !layout.array && keyStart < 0) {
          state = 'after';
          continue;
        }
        if (byte !== QUOTE)
          fail(at, `expected a double-quoted property name, found ${describeByte(byte)}`);
        inString = true;
        keyStart = at;
        continue;
      }
      if (state === 'colon') {
        if (byte !== 0x3a)
          fail(at, `expected ':' after a property name, found ${describeByte(byte)}`);
        state = 'value';
        valueStart = -1;
        continue;
      }
      // state === 'value'
      if (arrayClosed && depth === 1 && byte !== 0x2c && byte !== 0x7d)
        fail(at, `expected ',' or '}' after the list, found ${describeByte(byte)}`);
      if (valueStart < 0) {
        valueStart = at;
        if (byte === 0x5b && key === arrayKey) {
          streaming = { elements: 0, batches: [{ start: at + 1, end: -1, first: 0 }] };
          elementHasContent = false;
        }
      }
      if (streaming && depth === 2) {
        if (byte === 0x2c) {
          streaming.elements++;
          elementHasContent = false;
          const batch = streaming.batches[streaming.batches.length - 1]!;
          if (at + 1 - batch.start >= batchBytes) {
            batch.end = at;
            streaming.batches.push({ start: at + 1, end: -1, first: streaming.elements });
          }
          continue;
        }
        if (byte !== 0x5d) elementHasContent = true;
      }
      if (byte === QUOTE) {
        inString = true;
      } else if (byte === 0x7b || byte === 0x5b) {
        if (++depth > layout.maxDepth) layout.maxDepth = depth;
      } else if (byte === 0x7d || byte === 0x5d) {
        depth--;
        if (depth === 1 && streaming) {
          if (elementHasContent || streaming.elements > 0) streaming.elements++;
          streaming.batches[streaming.batches.length - 1]!.end = at;
          arrayClosed = true;
        }
        if (depth === 0) {
          if (byte !== 0x7d) fail(at, `expected ',' or '}', found ']'`);
          endMember(at);
          state = 'after';
        }
      } else if (byte === 0x2c && depth === 1) {
        endMember(at);
        state = 'key';
        keyStart = -1;
      }
    }
    base += length;
  }
  if (state !== 'after') {
    throw new ImportProblem(
      `${positionOf(fd, size)}: unexpected end of JSON — the file may still be being written`,
    );
  }
  return layout;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseKey(bytes: Buffer, invalid: () => never): string {
  try {
    return JSON.parse(utf8.decode(bytes)) as string;
  } catch {
    return invalid();
  }
}

/** The raw text of a byte range of the file (a member's key or value). */
export function readRange(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.allocUnsafe(end - start);
  readRangeInto(fd, start, end, buffer, 0);
  return buffer;
}

/** Reads a byte range of the file into `buffer` from `at` on. */
export function readRangeInto(
  fd: number,
  start: number,
  end: number,
  buffer: Buffer,
  at: number,
): void {
  for (let done = 0; done < end - start;) {
    const n = fs.readSync(fd, buffer, at + done, end - start - done, start + done);
    if (n === 0) throw new ImportProblem('the file became shorter while it was being read');
    done += n;
  }
}

/** "line 12, column 5" for a byte offset, counted on demand (only ever for an error). */
export function positionOf(fd: number, offset: number): string {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let line = 1;
  let lineStart = 0;
  for (let base = 0; base < offset;) {
    const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, offset - base), base);
    if (n === 0) break;
    for (let k = chunk.indexOf(0x0a); k !== -1 && k < n; k = chunk.indexOf(0x0a, k + 1)) {
      line++;
      lineStart = base + k + 1;
    }
    base += n;
  }
  return `line ${formatCount(line)}, column ${formatCount(offset - lineStart + 1)}`;
}
