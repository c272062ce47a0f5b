import { setTimeout as sleep } from 'node:timers/promises';
import { untilWritable } from '../db/busy';
import type { Db } from '../db/open';
import { sortedJson } from '../ingest/prepare';
import { CancelledError } from '../jobs/protocol';
import { HOLD_MS, restAfter } from '../search/fill';
import { decodeStoredBlock, type TextRow, type Unavailable } from './blocks';
import { decodeLocatedBlock, LOCATED, SourceFiles } from './located';
import { encodeSectionsBlock, SECTIONS } from './sections';

/** A block of `run_texts` by its key. */
export interface BlockName {
  run: number;
  block: number;
}

/** One slice of the archive, as a worker gets it (the search worker's fill is the model). */
export interface ArchiveTask {
  /** Where the last slice stopped (null at first): the blocks up to it were each seen once. */
  after: BlockName | null;
  /** Blocks per transaction to start with: the last slice's, so each slice starts tuned. */
  startBatch: number;
  /** Return after this long, so the caller can wait between slices (for a comparison). */
  sliceMs: number;
}

export interface ArchiveResult {
  /** False when no block to archive is left after `after`. */
  more: boolean;
  after: BlockName | null;
  batch: number;
  /** Blocks rewritten as `sections`, and their bytes before and after compression. */
  archived: number;
  bytes: number;
  compressedBytes: number;
  /** Blocks left located because their source is gone or changed: their rows say so. */
  left: (BlockName & { reason: Unavailable })[];
  transactions: number;
  longestHoldMs: number;
}

const MAX_BATCH = 64;

/**
 * Blocks the archive rewrites: how the indexer writes them, and `deflate`, the archive's form
 * before `sections`, whose pages inflate a block's outputs too (texts/sections.ts).
 */
export const UNARCHIVED = `encoding IN ('json', '${LOCATED}', 'deflate')`;

/** Blocks not archived yet: the total a progress bar counts archived blocks against. */
export function blocksToArchive(db: Db): number {
  return db.prepare(`SELECT count(*) FROM run_texts WHERE ${UNARCHIVED}`).pluck().get() as number;
}

interface Stored extends BlockName {
  encoding: string;
  data: Buffer;
}

interface Rewrite extends Stored {
  deflated: Buffer;
  /** The block's JSON before compression. */
  bytes: number;
}

/**
 * Rewrites the blocks the indexer wrote, `located` and `json` (and `deflate` ones archived
 * before `sections`), as `sections` on this connection
 * (a worker's own, prepared as the fill's is: `prepareFillConnection`), in key order from
 * `task.after`. Each block is read (a located one from its source, checked) and compressed
 * outside any transaction; a transaction then only swaps a few blocks, each only if it is
 * still the block that was read (a run re-indexed meanwhile keeps its new block). A crash or a
 * cancel leaves some blocks archived and the rest as they were, and both read the same, so the
 * next pass simply goes on. A block whose source changed or vanished stays located and is
 * reported, never archived with texts that are not the indexed ones. Between transactions it
 * rests as the fill does, so other writers and a cancel get in.
 */
export async function archiveSlice(
  db: Db,
  task: ArchiveTask,
  signal: AbortSignal,
  now: () => number = () => performance.now(),
): Promise<ArchiveResult> {
  const next = db.prepare(
    `SELECT run_rowid AS run, block, encoding, data FROM run_texts
     WHERE ${UNARCHIVED} AND (run_rowid, block) > (?, ?) ORDER BY run_rowid, block LIMIT ?`,
  );
  const checkpoint = db.prepare(`PRAGMA wal_checkpoint(PASSIVE)`);
  const result: ArchiveResult = {
    more: true,
    after: task.after,
    batch: task.startBatch,
    archived: 0,
    bytes: 0,
    compressedBytes: 0,
    left: [],
    transactions: 0,
    longestHoldMs: 0,
  };
  const files = new SourceFiles();
  const write = swapper(db, result, signal, now);
  const started = now();
  const over = () => now() - started >= task.sliceMs;
  for (;;) {
    if (signal.aborted) throw new CancelledError();
    const after = result.after ?? { run: -1, block: -1 };
    const blocks = next.all(after.run, after.block, result.batch) as Stored[];
    if (blocks.length === 0) return { ...result, more: false };
    const rewrites: Rewrite[] = [];
    for (const stored of blocks) {
      if (signal.aborted) throw new CancelledError();
      const rewrite = rewriteOf(stored, files, result.left);
      if (rewrite) rewrites.push(rewrite);
      result.after = { run: stored.run, block: stored.block };
      // Compressing takes far longer than the swap: a slice ends on time whatever the batch.
      if (over()) break;
    }
    if (rewrites.length === 0) {
      if (over()) return result;
      continue;
    }
    const held = await write(rewrites);
    const committed = now();
    checkpoint.run();
    if (over()) return result;
    await sleep(Math.max(0, restAfter(held) - (now() - committed)));
  }
}

/**
 * Swaps blocks in one transaction, each only if still stored as it was read, counting them in
 * `result`; gives how long the transaction held the write lock.
 */
function swapper(
  db: Db,
  result: ArchiveResult,
  signal: AbortSignal,
  now: () => number,
): (rewrites: Rewrite[]) => Promise<number> {
  const swap = db.prepare(
    `UPDATE run_texts SET encoding = '${SECTIONS}', data = ?
     WHERE run_rowid = ? AND block = ? AND encoding = ? AND data = ?`,
  );
  const pause = async () => {
    await sleep(10);
    if (signal.aborted) throw new CancelledError();
  };
  return async (rewrites) => {
    let locked = 0;
    let swapped: Rewrite[] = [];
    const held = await untilWritable(() => {
      swapped = db
        .transaction(() => {
          locked = now();
          return rewrites.filter(
            (r) => swap.run(r.deflated, r.run, r.block, r.encoding, r.data).changes > 0,
          );
        })
        .immediate();
      return now() - locked;
    }, pause);
    for (const r of swapped) {
      result.archived++;
      result.bytes += r.bytes;
      result.compressedBytes += r.deflated.length;
    }
    result.transactions++;
    result.longestHoldMs = Math.max(result.longestHoldMs, held);
    result.batch = nextBatch(result.batch, held);
    return held;
  };
}

/**
 * The archived form of a block, or null for a located block whose source is gone or changed
 * (then added to `left`). Done outside any transaction: it reads the source and compresses.
 */
function rewriteOf(
  stored: Stored,
  files: SourceFiles,
  left: ArchiveResult['left'],
): Rewrite | null {
  const { run, block, encoding, data } = stored;
  let rows: TextRow[];
  if (encoding === LOCATED) {
    rows = decodeLocatedBlock(data, files);
    const unavailable = rows.find((r) => r.unavailable !== null)?.unavailable;
    if (unavailable) {
      left.push({ run, block, reason: unavailable });
      return null;
    }
  } else rows = decodeStoredBlock(encoding === 'deflate' ? 'deflate' : 'json', data);
  const sections = encodeSectionsBlock(rows.map((r) => ({ ...r, fields: sortedJson(r.fields) })));
  return { ...stored, deflated: sections.data, bytes: sections.bytes };
}

/** Blocks per transaction: the number that would hold the lock `HOLD_MS`, moved 2× at most. */
function nextBatch(batch: number, heldMs: number): number {
  const scaled = Math.floor((batch * HOLD_MS) / Math.max(heldMs, 1));
  return Math.min(MAX_BATCH, Math.max(1, Math.ceil(batch / 2), Math.min(batch * 2, scaled)));
}

/**
 * Archives every block not archived yet, slice after slice, reporting after each: for the
 * CLI and tests; the app runs `archiveSlice` from a worker so it can wait between slices.
 */
export async function archiveAll(
  db: Db,
  signal: AbortSignal,
  onSlice: (slice: ArchiveResult) => void = () => undefined,
): Promise<void> {
  let task: ArchiveTask = { after: null, startBatch: 4, sliceMs: 250 };
  for (;;) {
    const slice = await archiveSlice(db, task, signal);
    onSlice(slice);
    if (!slice.more) return;
    task = { ...task, after: slice.after, startBatch: slice.batch };
  }
}
