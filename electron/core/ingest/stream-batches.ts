import { readExampleBatch } from './importers/mechlens';
import { positionOf, readRangeInto, type ArrayLayout } from './json-layout';
import { cleanExampleBatch, NormalizationCheck } from './limits';
import { TextLocator } from '../texts/locate';
import type { SourceStamp } from '../texts/located';
import { prepareExampleList, RunBuilders, type PreparedExamples } from './prepare';
import { SeenIds } from './seen-ids';
import { checkDepth, explainJsonError } from './read';
import { ImportProblem } from './types';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export function decode(bytes: Uint8Array, fd: number, offset: number): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ImportProblem(`${positionOf(fd, offset)}: not valid UTF-8 text`);
  }
}

/**
 * JSON.parse of part of the file, its errors placed in the file rather than in the part.
 * `nesting` false skips the depth check, for a file whose layout scan found it shallow enough.
 */
export function parsePart(text: string, fd: number, offset: number, nesting = true): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = positionOf(fd, offset).replace(/, column.*$/, '');
    throw new ImportProblem(`near ${where}: ${explainJsonError(text, error, 1, false)}`);
  }
  // Depth as in the whole document, where this part sits inside the run object.
  if (nesting && value !== null && typeof value === 'object') checkDepth([value]);
  return value;
}

/**
 * One batch of a large file's examples, parsed, checked and ready for the writer: only what
 * the writer stores is kept (a batch read ahead must not hold its texts while it waits).
 */
export interface ParsedBatch {
  count: number;
  prepared: PreparedExamples;
  /** Where the batch ends in the file, and how many of its bytes it held. */
  end: number;
  bytes: number;
}

/**
 * Reads a large file's examples batch by batch, in file order, with the checks that span
 * batches (duplicate ids, lone surrogates, ids that differ only in normalization), so batches
 * can be read before they are written.
 */
export class BatchReader {
  private index = 0;
  private readonly seen = new SeenIds();
  private readonly cleaned = new Map<string, string>();
  /** One buffer for every batch, grown by doubling: nothing keeps a batch's bytes. */
  private buffer = Buffer.allocUnsafe(0);
  private readonly builders: RunBuilders;
  /** Set when the file is one whose texts may be left in it (ingest/locate-runs.ts). */
  private readonly locator: TextLocator | null;
  readonly normalization = new NormalizationCheck();

  /**
   * `nesting` false when the file's layout scan found it no deeper than JSON.parse's results
   * may be (MAX_JSON_DEPTH): then no batch is walked for its depth.
   */
  constructor(
    private readonly fd: number,
    private readonly batches: ArrayLayout['batches'],
    stamp: SourceStamp | null = null,
    private readonly nesting = true,
  ) {
    this.builders = new RunBuilders(stamp);
    this.locator = stamp ? new TextLocator() : null;
  }

  get done(): boolean {
    return this.index >= this.batches.length;
  }

  next(): ParsedBatch | null {
    const batch = this.batches[this.index];
    if (!batch) return null;
    this.index++;
    const length = batch.end - batch.start;
    if (this.buffer.length < length + 2)
      this.buffer = Buffer.allocUnsafe(Math.max(length + 2, 2 * this.buffer.length));
    // Read between brackets, so the batch decodes to the array JSON.parse takes: wrapping the
    // decoded string instead made JSON.parse copy the whole batch into one flat string again.
    const wrapped = this.buffer.subarray(0, length + 2);
    readRangeInto(this.fd, batch.start, batch.end, wrapped, 1);
    wrapped[0] = OPEN_BRACKET;
    wrapped[length + 1] = CLOSE_BRACKET;
    const bytes = wrapped.subarray(1, length + 1);
    const text = decode(wrapped, this.fd, batch.start);
    const raw = parsePart(text, this.fd, batch.start, this.nesting) as unknown[];
    const examples = readExampleBatch(raw, batch.first, this.seen);
    cleanExampleBatch(examples, this.seen, this.cleaned);
    this.normalization.add(examples);
    const located = this.locator?.locate(bytes, batch.start, examples) ?? null;
    return {
      count: examples.length,
      prepared: prepareExampleList(examples, this.builders, this.done, located),
      end: batch.end,
      bytes: batch.end - batch.start,
    };
  }
}
