import { hash } from 'node:crypto';
import fs from 'node:fs';
import type { JsonObject } from '../../../shared/model';
import { wellFormed } from '../ingest/limits';
import {
  encodeJsonBlock,
  PackedBlock,
  partialRow,
  wholeRows,
  type BlockEncoding,
  type BlockRows,
  type PartialRow,
  type TextInput,
  type TextRow,
  type Unavailable,
  type Wanted,
} from './blocks';
import { JsonBytes } from './json-bytes';
import { SECTIONS, SectionsBlock } from './sections';
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
type Located = [number, number, string];
type Ref = string | Located;
type Packed = [Ref, Ref, JsonObject, string | null, string | null];
interface Block {
  path: string;
  size: number;
  mtimeMs: number;
  rows: Packed[];
}

/**
 * Bytes of `[`, `,`, `"`, `]`. Between two `text` calls a row writes at most 89 bytes by hand
 * (the end of a row, then two ranges with their hash prefixes): within the writer's SLACK.
 */
const OPEN = 0x5b;
const COMMA = 0x2c;
const QUOTE = 0x22;
const CLOSE = 0x5d;

/** Reused from block to block in this thread: each starts it empty, and takes a copy out. */
const out = new JsonBytes();

/** A text: inline as a JSON string, or `[start,end,"prefix"]` of its literal in the file. */
function writeRef(text: string, range: TextRange | null, sha1: string): void {
  if (range === null) {
    out.text(JSON.stringify(text));
    return;
  }
  out.byte(OPEN);
  out.digits(range.start);
  out.byte(COMMA);
  out.digits(range.end);
  out.byte(COMMA);
  out.byte(QUOTE);
  out.ascii(sha1, Math.min(HASH_DIGITS, sha1.length));
  out.byte(QUOTE);
  out.byte(CLOSE);
}

/** Most examples have no target and no error: no native call for them. */
const orNull = (text: string | null): string => (text === null ? 'null' : JSON.stringify(text));

/**
 * A block of examples from one source file: a JSON header (the file and its stamp) and per
 * example its two texts as ranges with a hash prefix, or inline when the locator missed them,
 * then its fields, target and error inline.
 */
export function encodeLocatedBlock(file: SourceStamp, rows: readonly LocatedInput[]): Buffer {
  out.clear();
  out.text(
    `{"path":${JSON.stringify(file.path)},"size":${file.size},"mtimeMs":${file.mtimeMs},"rows":[`,
  );
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (i > 0) out.byte(COMMA);
    out.byte(OPEN);
    writeRef(r.input, r.located.input, r.inputHash);
    out.byte(COMMA);
    writeRef(r.output, r.located.output, r.outputHash);
    out.byte(COMMA);
    out.text(r.fields);
    out.byte(COMMA);
    out.text(orNull(r.target));
    out.byte(COMMA);
    out.text(orNull(r.error));
    out.byte(CLOSE);
  }
  out.text(']}');
  return out.take();
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

/** Opens a block's source file for reading, or says why its texts cannot be had. */
function openSource(block: Block, files: SourceFiles): number | Unavailable {
  const stamp = files.stamp(block.path);
  if (stamp === null) return 'source-missing';
  if (stamp.size !== block.size || stamp.mtimeMs !== block.mtimeMs) return 'source-changed';
  try {
    return fs.openSync(block.path, 'r');
  } catch {
    return 'source-missing';
  }
}

/**
 * Reads sorted ranges in runs of close ones, one read per run, into `texts` by their ref: the
 * text, or null when it does not parse or fails its checks.
 */
function readRefs(fd: number, refs: Located[], texts: Map<Ref, string | null>): void {
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
      texts.set(refs[i]!, text !== null && isIndexed(text, prefix) ? text : null);
    }
  }
}

/** Bytes [from, to) of the file, or null when it now ends before `to`. */
function readFully(fd: number, from: number, to: number): Buffer | null {
  return readInto(fd, Buffer.allocUnsafe(to - from), from, to);
}

/**
 * Bytes [from, to) of the file read into the start of `into` (a scan reuses one buffer), or
 * null when the file now ends before `to`.
 */
export function readInto(fd: number, into: Buffer, from: number, to: number): Buffer | null {
  const bytes = into.subarray(0, to - from);
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
 * A located block opened for reading: its JSON parsed once, and the texts of the rows asked
 * for read from the source (only theirs: an explorer page wants one row of most blocks),
 * checked against the file's stamp and each text's hash prefix, and kept for the next ask. A
 * row whose source is gone or changed comes back `unavailable` with empty texts, never with
 * texts that are not the ones indexed; a row whose texts were both inline is always whole.
 * Whether a row is unavailable never depends on which of its texts were asked for: both are
 * read and checked.
 */
export class LocatedBlock implements BlockRows {
  private readonly block: Block;
  /** Each located text read so far; null when it failed its checks. */
  private readonly texts = new Map<Ref, string | null>();
  /** Why the source cannot be read, once that was found. */
  private unreadable: Unavailable | null = null;

  constructor(
    data: Buffer,
    private readonly files: SourceFiles,
  ) {
    this.block = JSON.parse(data.toString('utf8')) as Block;
  }

  get length(): number {
    return this.block.rows.length;
  }

  /** Reads the located texts of these rows not read yet, in few syscalls. */
  private read(indices: readonly number[]): void {
    if (this.unreadable) return;
    const refs: Located[] = [];
    for (const i of indices)
      for (const ref of this.block.rows[i]!.slice(0, 2) as Ref[])
        if (typeof ref !== 'string' && !this.texts.has(ref)) refs.push(ref);
    if (refs.length === 0) return;
    const fd = openSource(this.block, this.files);
    if (typeof fd === 'string') {
      this.unreadable = fd;
      return;
    }
    try {
      refs.sort((a, b) => a[0] - b[0]);
      readRefs(fd, refs, this.texts);
    } finally {
      fs.closeSync(fd);
    }
  }

  private text(ref: Ref): string | null {
    return typeof ref === 'string' ? ref : (this.texts.get(ref) ?? null);
  }

  rows(indices: readonly number[], want: Wanted): PartialRow[] {
    this.read(indices);
    return indices.map((i) => {
      const [input, output, fields, target, error] = this.block.rows[i]!;
      const inText = this.text(input);
      const outText = this.text(output);
      const whole = inText !== null && outText !== null;
      return partialRow(
        want,
        { input: () => (whole ? inText : ''), output: () => (whole ? outText : '') },
        {
          fields,
          target,
          error,
          unavailable: whole ? null : (this.unreadable ?? 'source-changed'),
        },
      );
    });
  }
}

/** A located block's examples, in order, each whole or saying why not (`LocatedBlock`). */
export function decodeLocatedBlock(data: Buffer, files: SourceFiles): TextRow[] {
  return wholeRows(new LocatedBlock(data, files));
}

/**
 * A stored block opened for reading however it is stored, its rows saying whether their texts
 * could be had (those of every encoding but `located` always can): the one call a reader of
 * `run_texts` needs.
 */
export function openTextBlock(
  encoding: BlockEncoding,
  data: Buffer,
  files: SourceFiles,
): BlockRows {
  if (encoding === LOCATED) return new LocatedBlock(data, files);
  if (encoding === SECTIONS) return new SectionsBlock(data);
  return new PackedBlock(encoding, data);
}

/** Every row of a stored block, whole (`openTextBlock`). */
export function decodeTextBlock(
  encoding: BlockEncoding,
  data: Buffer,
  files: SourceFiles,
): TextRow[] {
  return wholeRows(openTextBlock(encoding, data, files));
}
