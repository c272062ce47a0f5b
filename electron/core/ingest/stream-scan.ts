import type { Hash } from 'node:crypto';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { CancelledError } from '../jobs/protocol';
import { scanLayout, type JsonLayout } from './json-layout';
import { MAX_EXAMPLES_PER_RUN } from './limits';
import { MAX_JSON_DEPTH } from './read';
import type { BatchReader, ParsedBatch } from './stream-batches';
import { ImportProblem } from './types';

/** What a batch read ahead holds until it is written: its blocks and, last, the column store. */
export function keptBytes({ prepared }: ParsedBatch): number {
  const blocks = prepared.blocks.reduce((sum, block) => sum + block.data.byteLength, 0);
  return blocks + (prepared.columns?.byteLength ?? 0);
}

export interface ScanRead {
  layout: JsonLayout | null;
  /** The batches parsed as the scan passed them, from the first of their list on. */
  read: ParsedBatch[];
  /**
   * Where their list starts: they are the run's examples only if it is the layout's list (a
   * later "examples" key would replace it, as it does for JSON.parse).
   */
  arrayStart: number;
  /**
   * What the first batch that failed was refused for, held until the scan has found the file
   * sound and the header has shown it is a run: a broken file, or one that is not a run, is
   * reported as it was before any batch was parsed.
   */
  failure: ImportProblem | null;
}

/**
 * The layout scan of a large run file, parsing the batches of its examples from the scan's
 * own buffer as it passes them while what they keep stays under `cap` bytes, so those bytes
 * are read from the file once instead of twice. Nothing of the header is needed to prepare a
 * batch, so it may come after the examples; whether the file is a run at all is decided once
 * the scan is over, and what was parsed is dropped if it is not.
 */
export async function scanReading(
  fd: number,
  size: number,
  batchBytes: number,
  hash: Hash | undefined,
  reader: BatchReader,
  cap: number,
  signal: AbortSignal,
): Promise<ScanRead> {
  const scan = scanLayout(fd, size, 'examples', batchBytes, hash);
  const read: ParsedBatch[] = [];
  let arrayStart = -1;
  let kept = 0;
  let failure: ImportProblem | null = null;
  for (;;) {
    const step = scan.next();
    if (step.done) return { layout: step.value, read, arrayStart, failure };
    const { batch, wrapped, last, maxDepth } = step.value;
    if (arrayStart === -1) arrayStart = step.value.arrayStart;
    // A second list is read from the file: the reader already holds the first one's ids.
    if (step.value.arrayStart !== arrayStart || failure || kept >= cap) continue;
    // The limit is reported once the scan has counted them all.
    if (batch.first > MAX_EXAMPLES_PER_RUN) continue;
    try {
      const parsed = reader.parse(wrapped, batch, last, maxDepth > MAX_JSON_DEPTH);
      read.push(parsed);
      kept += keptBytes(parsed);
    } catch (error) {
      if (!(error instanceof ImportProblem)) throw error;
      failure = error;
    }
    await yieldToEvents();
    if (signal.aborted) throw new CancelledError();
  }
}
