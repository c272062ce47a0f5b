import fs from 'node:fs';
import { Decompress } from 'fzstd';
import {
  checkDepth,
  explainJsonError,
  firstInvalidUtf8,
  formatBytes,
  fsProblem,
  parseJsonText,
} from './read';
import { ImportProblem } from './types';
import { formatCount } from '../../../shared/format';

/** One JSONL record larger than this is not a run record anyone meant to write. */
const MAX_LINE_BYTES = 512 * 1024 ** 2;

type HeldLine = { lineNo: number; message: string };

export interface JsonLinesResult {
  /** Records handed to onRecord (blank and skipped lines are not counted). */
  lines: number;
  warnings: string[];
}

export interface JsonLinesOptions {
  signal?: AbortSignal;
  onBytes?: (bytes: number) => void;
  /** Read Python's NaN / Infinity / -Infinity as numbers (see parsePythonJson). */
  nonFinite?: boolean;
}

/**
 * Parses one line at a time. A bad line is held back: it is only an error once a later
 * non-blank line shows it was not the last.
 */
class LineParser {
  held: HeldLine | null = null;
  lineNo = 0;
  records = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly nonFinite: boolean,
    private readonly onRecord: (value: unknown, lineNo: number) => void,
  ) {}

  line(bytes: Uint8Array): void {
    this.lineNo++;
    let text: string | null = null;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      // Invalid UTF-8: reported below, once we know whether this is the last line.
    }
    if (text !== null && text.trim() === '') return;
    if (this.held !== null) throw new ImportProblem(this.held.message);
    const at = this.lineNo;
    if (text === null) {
      const offset = formatCount(firstInvalidUtf8(bytes));
      this.held = {
        lineNo: at,
        message: `line ${formatCount(at)} is not valid UTF-8 text (bad byte at offset ${offset} of the line)`,
      };
      return;
    }
    let value: unknown;
    try {
      value = parseJsonText(text, this.nonFinite);
    } catch (error) {
      this.held = { lineNo: at, message: explainJsonError(text, error, at, false, this.nonFinite) };
      return;
    }
    if (value !== null && typeof value === 'object') {
      try {
        checkDepth(value);
      } catch (error) {
        throw new ImportProblem(`line ${formatCount(at)}: ${(error as Error).message}`);
      }
    }
    this.records++;
    this.onRecord(value, at);
  }
}

/** Cuts chunks of bytes into lines; a line that spans chunks is kept until its newline. */
class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(private readonly parser: LineParser) {}

  push(data: Uint8Array): void {
    let start = 0;
    for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, start)) {
      const piece = data.subarray(start, nl);
      this.parser.line(this.pending.length > 0 ? Buffer.concat([...this.pending, piece]) : piece);
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    if (start < data.length) {
      // Copied: the zstd decoder may reuse its output buffer after this call returns.
      this.pending.push(data.slice(start));
      this.pendingBytes += data.length - start;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        throw new ImportProblem(
          `line ${formatCount(this.parser.lineNo + 1)} is longer than ${formatBytes(MAX_LINE_BYTES)}`,
        );
      }
    }
  }

  /** The last line, when the file does not end with a newline. */
  end(): void {
    if (this.pending.length > 0) this.parser.line(Buffer.concat(this.pending));
  }
}

/**
 * Feeds a zstd stream to `onBytes`. A stream cut short at its end is what a writer that is
 * still running leaves: a warning, and the records before the cut are kept.
 */
function zstdFeeder(
  onBytes: (data: Uint8Array) => void,
  warnings: string[],
): (chunk: Uint8Array, final: boolean) => void {
  const stream = new Decompress((chunk) => onBytes(chunk));
  return (chunk, final) => {
    try {
      stream.push(chunk, final);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'number') throw error;
      if (final && code === 5)
        warnings.push(
          'the zstd stream ends early (the file may be incomplete); the records before the cut were read',
        );
      else
        throw new ImportProblem(
          `the zstd-compressed data is damaged (${(error as Error).message})`,
        );
    }
  };
}

/**
 * Streams a JSON Lines file (plain, or `.zst`), calling onRecord per non-blank line. A bad
 * line in the middle fails the file with its line number; a bad LAST line is what a writer
 * that is still running leaves behind, so it becomes a warning and the rest is kept.
 */
export async function readJsonLines(
  path: string,
  onRecord: (value: unknown, lineNo: number) => void,
  opts: JsonLinesOptions = {},
): Promise<JsonLinesResult> {
  const warnings: string[] = [];
  const parser = new LineParser(opts.nonFinite ?? false, onRecord);
  const splitter = new LineSplitter(parser);
  const zstd = path.toLowerCase().endsWith('.zst')
    ? zstdFeeder((data) => splitter.push(data), warnings)
    : null;
  let bytesRead = 0;
  try {
    for await (const chunk of fs.createReadStream(path, {
      highWaterMark: 1 << 20,
      signal: opts.signal,
    })) {
      const bytes = chunk as Buffer;
      bytesRead += bytes.length;
      opts.onBytes?.(bytesRead);
      if (zstd) zstd(bytes, false);
      else splitter.push(bytes);
    }
    zstd?.(new Uint8Array(0), true);
  } catch (error) {
    throw fsProblem(error);
  }
  if (bytesRead === 0) throw new ImportProblem('the file is empty');
  splitter.end();
  const last = parser.held;
  if (last !== null) {
    warnings.push(
      `line ${formatCount(last.lineNo)}, the last line, was skipped: it is incomplete or malformed, perhaps because the file is still being written (${last.message})`,
    );
  }
  return { lines: parser.records, warnings };
}
