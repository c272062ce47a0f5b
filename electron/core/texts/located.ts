import { hash } from 'node:crypto';
import fs from 'node:fs';
import type { JsonObject } from '../../../shared/model';
import { wellFormed } from '../ingest/limits';
import {
  decodeStoredBlock,
  encodeJsonBlock,
  type BlockEncoding,
  type TextInput,
  type TextRow,
  type Unavailable,
} from './blocks';
import type { LocatedTexts, TextRange } from './locate';

/**
 * The `located` encoding of a block: what the indexer writes for a plain local source file
 * that outlives indexing, so the texts it found in the file (texts/locate.ts) are not copied
 * on the path the user waits for. Their ranges are read back from the file, checked, until the
 * background archive (texts/archive.ts) replaces the block by its `deflate` form.
 */
export const LOCATED = 'located';

/** The source file as it was stat'ed before the indexer read it. */
export interface SourceStamp {
  path: string;
  size: number;
  mtimeMs: number;
}

/** One example as the indexer hands it over, with where its texts lie and their hashes. */
export interface LocatedInput extends TextInput {
  located: LocatedTexts;
  /** Hex SHA-1 of the input and output (ingest/prepare.ts), of which a prefix is kept. */
  inputHash: string;
  outputHash: string;
}

/** Hex digits of a text's SHA-1 kept to verify what is read back (64 bits). */
const HASH_DIGITS = 16;
/** Ranges closer than this are read with one syscall, the bytes between them read too. */
const MAX_GAP = 256 * 1024;
/** ...unless one read would grow past this: a block of huge texts is read in several. */
const MAX_READ = 32 * 1024 ** 2;

/** A text in a block: inline, or [start, end, hash prefix] of its literal in the file. */
type Ref = string | [number, number, string];
type Packed = [Ref, Ref, JsonObject, string | null, string | null];
interface Block {
  path: string;
  size: number;
  mtimeMs: number;
  rows: Packed[];
}

function ref(text: string, range: TextRange | null, sha1: string): string {
  return range === null
    ? JSON.stringify(text)
    : `[${range.start},${range.end},"${sha1.slice(0, HASH_DIGITS)}"]`;
}

/** Most examples have no target and no error: no native call for them. */
const orNull = (text: string | null): string => (text === null ? 'null' : JSON.stringify(text));

/**
 * A block of examples from one source file: a JSON header (the file and its stamp) and per
 * example its two texts as ranges with a hash prefix, or inline when the locator missed them,
 * then its fields, target and error inline.
 */
export function encodeLocatedBlock(file: SourceStamp, rows: readonly LocatedInput[]): Buffer {
  const parts = rows.map(
    (r) =>
      `[${ref(r.input, r.located.input, r.inputHash)},${ref(r.output, r.located.output, r.outputHash)},` +
      `${r.fields},${orNull(r.target)},${orNull(r.error)}]`,
  );
  const head = `{"path":${JSON.stringify(file.path)},"size":${file.size},"mtimeMs":${file.mtimeMs}`;
  return Buffer.from(`${head},"rows":[${parts.join(',')}]}`, 'utf8');
}

/**
 * How the indexer stores a block of examples read from a source: `located` when the source is
 * a plain local file (`file` given, see docs/architecture.md) and at least one text was found
 * in it, else `json` as before.
 */
export function encodeSourceBlock(
  file: SourceStamp | null,
  rows: readonly LocatedInput[],
): { encoding: 'json' | typeof LOCATED; data: Buffer } {
  const any = rows.some((r) => r.located.input !== null || r.located.output !== null);
  return file !== null && any
    ? { encoding: LOCATED, data: encodeLocatedBlock(file, rows) }
    : { encoding: 'json', data: encodeJsonBlock(rows) };
}

/**
 * Source files as one reader found them: each stat'ed once (a reader decodes many blocks of
 * the same file), so make one per reader, or per archive pass, not one for the process.
 */
export class SourceFiles {
  private readonly stamps = new Map<string, { size: number; mtimeMs: number } | null>();

  stamp(path: string): { size: number; mtimeMs: number } | null {
    let stamp = this.stamps.get(path);
    if (stamp === undefined) {
      try {
        const stat = fs.statSync(path);
        stamp = stat.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : null;
      } catch {
        stamp = null;
      }
      this.stamps.set(path, stamp);
    }
    return stamp;
  }
}

/** A block's texts as read back: each located text's value, or why it could not be had. */
type Readout = Map<Ref, string> | Unavailable;

/** The located texts of a block, read in few syscalls and each checked, or why not. */
function readTexts(block: Block, files: SourceFiles): Readout {
  const stamp = files.stamp(block.path);
  if (stamp === null) return 'source-missing';
  if (stamp.size !== block.size || stamp.mtimeMs !== block.mtimeMs) return 'source-changed';
  const refs: [number, number, string][] = [];
  for (const [input, output] of block.rows) {
    if (typeof input !== 'string') refs.push(input);
    if (typeof output !== 'string') refs.push(output);
  }
  refs.sort((a, b) => a[0] - b[0]);
  let fd: number;
  try {
    fd = fs.openSync(block.path, 'r');
  } catch {
    return 'source-missing';
  }
  try {
    return readRefs(fd, refs);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads sorted ranges in runs of close ones, one read per run; texts keyed by their ref. */
function readRefs(fd: number, refs: [number, number, string][]): Map<Ref, string> {
  const texts = new Map<Ref, string>();
  for (let i = 0; i < refs.length;) {
    const from = refs[i]![0];
    let to = refs[i]![1];
    let j = i + 1;
    while (j < refs.length && refs[j]![0] - to <= MAX_GAP && refs[j]![1] - from <= MAX_READ) {
      to = Math.max(to, refs[j]![1]);
      j++;
    }
    const bytes = readFully(fd, from, to);
    for (; i < j; i++) {
      const [start, end, prefix] = refs[i]!;
      const text = bytes && parseLiteral(bytes, start - from, end - from);
      if (text !== null && isIndexed(text, prefix)) texts.set(refs[i]!, text);
    }
  }
  return texts;
}

/** Bytes [from, to) of the file, or null when it now ends before `to`. */
function readFully(fd: number, from: number, to: number): Buffer | null {
  const bytes = Buffer.allocUnsafe(to - from);
  let got = 0;
  while (got < bytes.length) {
    const n = fs.readSync(fd, bytes, got, bytes.length - got, from + got);
    if (n === 0) return null;
    got += n;
  }
  return bytes;
}

/**
 * Whether a text read back is the one indexed. Stored texts are well-formed (the indexer
 * replaces lone surrogates), and the SHA-1 of a string hashes each lone surrogate as U+FFFD,
 * so a literal edited from `\ufffd` to `\ud800` would pass the hash alone.
 */
function isIndexed(text: string, prefix: string): boolean {
  return wellFormed(text) === text && hash('sha1', text, 'hex').startsWith(prefix);
}

function parseLiteral(bytes: Buffer, start: number, end: number): string | null {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8', start, end));
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * A located block's examples, in order, each with its texts read from the source and checked
 * against the file's stamp and each text's hash prefix. A row whose source is gone or changed
 * comes back `unavailable` with empty texts, never with texts that are not the ones indexed;
 * a row whose texts were both inline is always whole.
 */
export function decodeLocatedBlock(data: Buffer, files: SourceFiles): TextRow[] {
  const block = JSON.parse(data.toString('utf8')) as Block;
  const located = block.rows.some(([i, o]) => typeof i !== 'string' || typeof o !== 'string');
  const readout: Readout = located ? readTexts(block, files) : new Map();
  return block.rows.map(([input, output, fields, target, error]) => {
    const texts = typeof readout === 'string' ? null : readout;
    const inText = typeof input === 'string' ? input : (texts?.get(input) ?? null);
    const outText = typeof output === 'string' ? output : (texts?.get(output) ?? null);
    if (inText !== null && outText !== null)
      return { input: inText, output: outText, fields, target, error, unavailable: null };
    const unavailable = typeof readout === 'string' ? readout : 'source-changed';
    return { input: '', output: '', fields, target, error, unavailable };
  });
}

/**
 * A block's rows however it is stored, each saying whether its texts could be had (those of
 * `json` and `deflate` blocks always can): the one call a reader of `run_texts` needs.
 */
export function decodeTextBlock(
  encoding: BlockEncoding,
  data: Buffer,
  files: SourceFiles,
): TextRow[] {
  if (encoding === LOCATED) return decodeLocatedBlock(data, files);
  return decodeStoredBlock(encoding, data);
}
