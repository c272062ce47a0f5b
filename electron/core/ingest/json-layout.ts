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
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

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
 * A batch of the streamed array's elements as the scan passes it, so that it can be parsed
 * from the scan's own buffer instead of being read from the file again.
 */
export interface ScannedBatch {
  batch: ArrayLayout['batches'][number];
  /** Where the batch's array starts: a later member with the same key replaces the array. */
  arrayStart: number;
  /**
   * The batch's bytes between `[` and `]` (written over the bytes around it, which the scan
   * has passed), in the scan's buffer: valid only until the scan goes on.
   */
  wrapped: Buffer;
  /** Whether it ends the array. */
  last: boolean;
  /** How deep the document has nested up to the batch's end (JsonLayout.maxDepth so far). */
  maxDepth: number;
}

/** The layout alone, for a caller that reads the batches itself. */
export function scanJsonObject(
  fd: number,
  size: number,
  arrayKey: string,
  batchBytes: number,
  hash?: Hash,
): JsonLayout | null {
  const scan = scanLayout(fd, size, arrayKey, batchBytes, hash);
  for (;;) {
    const step = scan.next();
    if (step.done) return step.value;
  }
}

/**
 * Yields each batch of the streamed array as it is passed, then returns the layout, or null
 * when the document is not a JSON object (another reader's job). The buffer keeps the bytes
 * of the batch being passed from one read to the next, so each byte of the file is read once.
 * One function on purpose: it is a byte-level state machine run over files of hundreds of MB,
 * and its state (depth, string, escape, key) lives in locals the loop updates per byte; split
 * into calls, that state would have to travel through objects on every byte.
 */
// eslint-disable-next-line max-lines-per-function -- a per-byte state machine, whole on purpose
export function* scanLayout(
  fd: number,
  size: number,
  arrayKey: string,
  batchBytes: number,
  /** Fed every byte of the file in order, so that it need not be read again for its hash. */
  hash?: Hash,
): Generator<ScannedBatch, JsonLayout | null, void> {
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  /** The file offset of buffer[0], and how far the file has been read. */
  let base = 0;
  let read = 0;
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
  const passed = (array: ArrayLayout, last: boolean): ScannedBatch => {
    const batch = array.batches[array.batches.length - 1]!;
    // The byte before a batch is the array's `[` or a comma, the one after a comma or `]`.
    const wrapped = buffer.subarray(batch.start - 1 - base, batch.end + 1 - base);
    wrapped[0] = OPEN_BRACKET;
    wrapped[wrapped.length - 1] = CLOSE_BRACKET;
    const arrayStart = array.batches[0]!.start;
    return { batch, arrayStart, wrapped, last, maxDepth: layout.maxDepth };
  };

  while (read < size) {
    // Kept from the open batch's first byte on, and the one before it, for its `[`.
    const open: number = streaming
      ? streaming.batches[streaming.batches.length - 1]!.start - 1
      : read;
    const kept: number = read - open;
    if (kept + CHUNK_BYTES > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * buffer.length, kept + CHUNK_BYTES));
      buffer.copy(grown, 0, open - base, read - base);
      buffer = grown;
    } else if (kept > 0) {
      buffer.copyWithin(0, open - base, read - base);
    }
    base = open;
    const length = fs.readSync(fd, buffer, kept, Math.min(CHUNK_BYTES, size - read), read);
    if (length === 0) break;
    const end = kept + length;
    const bytes = buffer.subarray(0, end);
    hash?.update(bytes.subarray(kept));
    read += length;
    let i: number = kept;
    while (i < end) {
      if (inString) {
        // Jump to the next quote; it ends the string unless an odd run of backslashes escapes it.
        const quote = bytes.indexOf(QUOTE, i);
        const stop = quote === -1 ? end : quote;
        let run = 0;
        for (let k = stop - 1; k >= i && bytes[k] === BACKSLASH; k--) run++;
        if (run === stop - i) run += backslashes;
        if (quote === -1) {
          backslashes = run;
          i = end;
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
      const at: number = base + i;
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
        if (byte === OPEN_BRACKET && key === arrayKey) {
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
            yield passed(streaming, false);
            streaming.batches.push({ start: at + 1, end: -1, first: streaming.elements });
          }
          continue;
        }
        if (byte !== CLOSE_BRACKET) elementHasContent = true;
      }
      if (byte === QUOTE) {
        inString = true;
      } else if (byte === 0x7b || byte === OPEN_BRACKET) {
        if (++depth > layout.maxDepth) layout.maxDepth = depth;
      } else if (byte === 0x7d || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 1 && streaming) {
          if (elementHasContent || streaming.elements > 0) streaming.elements++;
          streaming.batches[streaming.batches.length - 1]!.end = at;
          arrayClosed = true;
          yield passed(streaming, true);
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
