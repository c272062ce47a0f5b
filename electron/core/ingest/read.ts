import { open, readFile, stat } from 'node:fs/promises';
import { reviveNonFinite, rewriteNonFinite } from './non-finite';
import { ImportProblem } from './types';
import { formatCount } from '../../../shared/format';

/**
 * Readers for untrusted run files. Every failure a person could act on becomes an
 * ImportProblem whose message says what is wrong and where (line and column, byte offset),
 * because the problems list is the only place a user sees why a file was not imported.
 */

export const DEFAULT_MAX_BYTES = 1024 ** 3;
/** Later code walks parsed values recursively; this bound keeps it off the stack limit. */
export const MAX_JSON_DEPTH = 512;
const BINARY_PROBE_BYTES = 8192;

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0
    ? `${formatCount(bytes)} bytes`
    : `${value.toFixed(1).replace(/\.0$/, '')} ${units[unit]}`;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Turns a Node file-system error into a sentence about the file. */
export function describeFsError(error: unknown): string {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : null;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: Pairwise is not allowed to read it (check the permissions and owner of the file or its folder)';
    case 'ENOENT':
      return 'it no longer exists (it was moved or deleted while Pairwise was reading)';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'ELOOP':
      return 'too many levels of symbolic links (a symbolic link loop)';
    default:
      return `it could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** File-system errors become problems; anything else (aborts, bugs) passes through. */
export function fsProblem(error: unknown): unknown {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : null;
  return typeof code === 'string' && !isAbortError(error)
    ? new ImportProblem(describeFsError(error))
    : error;
}

/** Byte offset of the first malformed UTF-8 sequence, or -1 when the bytes are valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const extra = lead < 0xc2 ? 0 : lead < 0xe0 ? 1 : lead < 0xf0 ? 2 : lead < 0xf5 ? 3 : 0;
    if (extra === 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= extra; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf))
        return i;
    }
    i += extra + 1;
  }
  return -1;
}

/** Decodes a whole file's bytes as UTF-8 text; a leading BOM is dropped. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new ImportProblem('the file is empty');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ImportProblem('the file is UTF-16 text; save it as UTF-8 and index it again');
  }
  if (bytes.subarray(0, BINARY_PROBE_BYTES).indexOf(0) !== -1) {
    throw new ImportProblem('binary data, not a text run file');
  }
  try {
    // ignoreBOM is false by default, so the decoder itself strips a leading UTF-8 BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    const bad = firstInvalidUtf8(bytes);
    if (bad !== -1)
      throw new ImportProblem(
        `not valid UTF-8 text (first bad byte at offset ${formatCount(bad)})`,
      );
    throw new ImportProblem(
      `the file (${formatBytes(bytes.length)}) is too large to read as one piece of text: ${String(error)}`,
    );
  }
}

export async function readTextFile(
  path: string,
  opts: { maxBytes?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const tooBig = (size: number) =>
    new ImportProblem(
      `the file is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} limit for one file; write the run as several smaller files and index again`,
    );
  let bytes: Buffer;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new ImportProblem(describeFsError({ code: 'EISDIR' }));
    if (info.size > maxBytes) throw tooBig(info.size);
    bytes = await readFile(path, { signal: opts.signal });
  } catch (error) {
    throw fsProblem(error);
  }
  // The file may have grown between stat and read.
  if (bytes.length > maxBytes) throw tooBig(bytes.length);
  return decodeText(bytes);
}

/** The first `length` bytes of a file, for sniffing its kind without reading all of it. */
export async function readHead(path: string, length: number): Promise<Uint8Array> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fsProblem(error);
  }
}

// ---------------------------------------------------------------------------------- JSON

interface JsonError {
  offset: number;
  reason: string;
}

const closerOf = (open: string): string => (open === '{' ? '}' : ']');
const show = (c: string): string => (c === "'" ? `"'"` : `'${c}'`);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_PREFIX = /-?\d*\.?\d*(?:[eE][+-]?\d*)?$/y;

function scanString(s: string, start: number): number | JsonError {
  for (let j = start + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) {
      const hex = c.toString(16).padStart(4, '0').toUpperCase();
      return {
        offset: j,
        reason: `a raw control character (U+${hex}) inside a string; it must be escaped`,
      };
    }
    if (c !== 0x5c) continue;
    const escape = s[j + 1];
    if (escape === undefined) break;
    if (escape === 'u') {
      const hex = s.slice(j + 2, j + 6);
      if (!/^[0-9a-fA-F]*$/.test(hex))
        return { offset: j, reason: 'a \\u escape needs four hex digits' };
      j += 5;
    } else if ('"\\/bfnrt'.includes(escape)) j++;
    else return { offset: j, reason: `the escape \\${escape} is not valid JSON` };
  }
  return { offset: s.length, reason: 'unexpected end of JSON' };
}

const LITERALS = ['true', 'false', 'null'];
const PYTHON_LITERALS = [...LITERALS, 'NaN', 'Infinity', '-Infinity'];

function scanScalar(s: string, i: number, literals: string[]): number | JsonError {
  for (const literal of literals) {
    if (s.startsWith(literal, i)) return i + literal.length;
    if (literal.startsWith(s.slice(i)))
      return { offset: s.length, reason: 'unexpected end of JSON' };
  }
  NUMBER.lastIndex = i;
  if (NUMBER.exec(s)) return NUMBER.lastIndex;
  NUMBER_PREFIX.lastIndex = i;
  if (NUMBER_PREFIX.test(s)) return { offset: s.length, reason: 'unexpected end of JSON' };
  const word = /[\w.+-]{1,20}/y;
  word.lastIndex = i;
  return { offset: i, reason: `unexpected ${show(word.exec(s)?.[0] ?? s[i]!)}` };
}

/**
 * Finds where JSON text goes wrong. JSON.parse only says where on some V8 versions and for
 * some errors, so this small iterative scanner (run only after a failed parse) gives every
 * message a line and column.
 */
function locateJsonError(s: string, nonFinite: boolean): JsonError | null {
  const literals = nonFinite ? PYTHON_LITERALS : LITERALS;
  const stack: string[] = [];
  let want: 'value' | 'key' | 'colon' | 'next' | 'end' = 'value';
  let justOpened = false;
  for (let i = 0; ;) {
    while (i < s.length && ' \t\n\r'.includes(s[i]!)) i++;
    const c = s[i];
    if (c === undefined)
      return want === 'end' ? null : { offset: i, reason: 'unexpected end of JSON' };
    const top = stack[stack.length - 1];
    if (top && (want === 'next' || justOpened) && c === closerOf(top)) {
      stack.pop();
      i++;
      want = stack.length > 0 ? 'next' : 'end';
      justOpened = false;
      continue;
    }
    justOpened = false;
    if (want === 'end')
      return { offset: i, reason: `unexpected ${show(c)} after the end of the JSON value` };
    if (want === 'colon') {
      if (c !== ':')
        return { offset: i, reason: `expected ':' after a property name, found ${show(c)}` };
      i++;
      want = 'value';
      continue;
    }
    if (want === 'next') {
      if (c !== ',')
        return { offset: i, reason: `expected ',' or '${closerOf(top!)}', found ${show(c)}` };
      i++;
      want = top === '{' ? 'key' : 'value';
      continue;
    }
    if (want === 'key' && c !== '"') {
      return { offset: i, reason: `expected a double-quoted property name, found ${show(c)}` };
    }
    if (c === '{' || c === '[') {
      stack.push(c);
      if (stack.length > MAX_JSON_DEPTH)
        return { offset: i, reason: `nested more than ${MAX_JSON_DEPTH} levels deep` };
      i++;
      want = c === '{' ? 'key' : 'value';
      justOpened = true;
      continue;
    }
    const end = c === '"' ? scanString(s, i) : scanScalar(s, i, literals);
    if (typeof end !== 'number') return end;
    i = end;
    want = want === 'key' ? 'colon' : stack.length > 0 ? 'next' : 'end';
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Explains why JSON.parse rejected `text`. `firstLine` shifts line numbers when the text is one
 * line of a larger file (JSON Lines); `atFileEnd` says whether running out of text could mean
 * the writer is not finished; `nonFinite` whether NaN and Infinity were allowed.
 */
export function explainJsonError(
  text: string,
  error: unknown,
  firstLine = 1,
  atFileEnd = true,
  nonFinite = false,
): string {
  if (error instanceof RangeError) return `nested more than ${MAX_JSON_DEPTH} levels deep`;
  if (text.trim() === '') return 'the file contains only whitespace, no JSON';
  const v8 = error instanceof Error ? error.message : String(error);
  const found = locateJsonError(text, nonFinite) ?? {
    offset: Number(/at position (\d+)/.exec(v8)?.[1] ?? text.length),
    reason: v8.replace(/ in JSON at position \d+.*$/s, '').replace(/^\w/, (c) => c.toLowerCase()),
  };
  const { line, column } = lineAndColumn(text, found.offset);
  const where = `line ${formatCount(line + firstLine - 1)}`;
  const word = nonFinite
    ? null
    : /^-?(?:NaN|Infinity)/.exec(text.slice(found.offset, found.offset + 9));
  if (word) {
    return `${word[0]} is not valid JSON (${where}); the producer wrote a non-finite number`;
  }
  if (found.offset >= text.trimEnd().length) {
    const hint = atFileEnd ? ' — the file may still be being written' : '';
    return `${where}, column ${formatCount(column)}: unexpected end of JSON${hint}`;
  }
  return `${where}, column ${formatCount(column)}: ${found.reason}`;
}

/**
 * Rejects values nested deeper than MAX_JSON_DEPTH. It visits every object and list of a file,
 * so it is a plain recursion: it throws before going past MAX_JSON_DEPTH frames, and keeps no
 * stacks of pending values (the stacks it had, pushed and popped per value, made it twice as
 * slow, more so in a worker's first files, before V8 optimises it).
 */
export function checkDepth(item: object, depth = 1): void {
  if (depth > MAX_JSON_DEPTH)
    throw new ImportProblem(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  const children: unknown[] = Array.isArray(item) ? item : Object.values(item);
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child !== null && typeof child === 'object') checkDepth(child, depth + 1);
  }
}

/**
 * JSON.parse holds every value of a document at once, at some 30 bytes of heap each; a file of
 * nothing but `[],[],…` would need many times its size and end the process. Past this many
 * values a whole-file parse is refused (ten million small examples are about 40 million).
 */
export const MAX_JSON_VALUES = 50_000_000;
/** Below this size a document cannot hold MAX_JSON_VALUES values worth worrying about. */
const COUNT_VALUES_FROM_CHARS = 64 * 1024 ** 2;

/**
 * An upper bound on the values in JSON text, counted up to `stopAt`: every value but the
 * first follows a ',' or an opening bracket (commas inside strings only make it higher).
 */
export function countJsonValues(text: string, stopAt = Infinity): number {
  let n = 1;
  for (const mark of [',', '[', '{']) {
    for (let i = text.indexOf(mark); i !== -1 && n <= stopAt; i = text.indexOf(mark, i + 1)) n++;
  }
  return n;
}

/**
 * JSON.parse, then, only when that fails and `nonFinite` is set, a second parse with Python's
 * NaN / Infinity / -Infinity read as numbers (non-finite.ts). Valid JSON never pays for the
 * rewrite.
 */
export function parseJsonText(text: string, nonFinite: boolean): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const rewritten = nonFinite ? rewriteNonFinite(text) : null;
    if (rewritten === null) throw error;
    try {
      return JSON.parse(rewritten, reviveNonFinite);
    } catch {
      // The rewrite moves columns; the original text, scanned with the words allowed, does not.
      throw error;
    }
  }
}

/** JSON.parse with messages a person can act on; `label` names the part of a larger file. */
export function parseJson(
  text: string,
  label?: string,
  maxValues = text.length > COUNT_VALUES_FROM_CHARS ? MAX_JSON_VALUES : Infinity,
  nonFinite = false,
): unknown {
  const prefix = label ? `${label}: ` : '';
  if (maxValues !== Infinity && countJsonValues(text, maxValues) > maxValues) {
    throw new ImportProblem(
      `${prefix}the JSON holds more than ${formatCount(maxValues)} values, more than Pairwise can read in one piece without running out of memory; write the run as several smaller files and index again`,
    );
  }
  let value: unknown;
  try {
    value = parseJsonText(text, nonFinite);
  } catch (error) {
    throw new ImportProblem(prefix + explainJsonError(text, error, 1, true, nonFinite));
  }
  if (value !== null && typeof value === 'object') {
    try {
      checkDepth(value);
    } catch (error) {
      throw new ImportProblem(prefix + (error as Error).message);
    }
  }
  return value;
}

/** JSON as Python's json.dumps writes it: bare NaN, Infinity and -Infinity are numbers. */
export function parsePythonJson(text: string, label?: string): unknown {
  return parseJson(text, label, undefined, true);
}
