import { setTimeout as sleep } from 'node:timers/promises';
import { untilWritable } from '../db/busy';
import type { Db } from '../db/open';
import { CancelledError } from '../jobs/protocol';
import { TextReader } from '../texts/read';

/** One slice of the fill, as the search worker gets it from the service. */
export interface FillTask {
  dbPath: string;
  /** Pending runs by rowid, those a search waits for first. */
  order: number[];
  /** Keys per transaction: fixed when given, else sized to `HOLD_MS` as the fill goes. */
  batch: number | null;
  /** Where an adaptive batch starts (the last slice's size, so each slice starts tuned). */
  startBatch: number;
  /** Return to the service after this long, so it can pass a new order (a search's runs). */
  sliceMs: number;
}

export interface FillResult {
  /** False when none of the runs in the order was left to index. */
  more: boolean;
  batch: number;
  transactions: number;
  /** The longest a transaction of this slice held the write lock. */
  longestHoldMs: number;
  /** Transactions that held it longer than `LONG_HOLD_MS`. */
  longHolds: number;
}

/**
 * How long one transaction may hold the write lock: the service's thread and the index and
 * compare workers write too, and each write of theirs may have to wait this long, and then
 * until its busy handler tries again (`restAfter`).
 */
export const HOLD_MS = 30;
/** A hold past this is one the service's thread would notice (a dropped frame or two). */
const LONG_HOLD_MS = 50;
const MIN_BATCH = 50;
const MAX_BATCH = 50_000;
/** How long the fill waits at once for another writer's lock before looking for a cancel. */
const BUSY_MS = 100;
/**
 * How SQLite's busy handler waits for the lock (the service's connection and the other
 * workers' wait in it): it tries, sleeps these steps one after the other between tries, then
 * 100 ms at a time. A writer asleep in it does not see the lock freed until its next try.
 */
const BUSY_SLEEPS_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];
/** A sleeping writer's thread wakes a little late on a busy machine, and so does the fill's. */
const WAKE_SLACK_MS = 5;

/**
 * How long the fill leaves the lock free after a transaction that held it `heldMs`: long
 * enough for a writer that began waiting during it to wake and try again. Without it the fill
 * took the lock back at once, and such a writer, trying only now and then, kept finding it
 * taken: the service's writes waited 230–330 ms behind transactions of 30–70 ms.
 */
export function restAfter(heldMs: number): number {
  let slept = 0;
  for (const step of BUSY_SLEEPS_MS) {
    // A writer that began waiting `heldMs` ago or less is asleep in this step or an earlier one.
    if (slept + step > heldMs) return step + WAKE_SLACK_MS;
    slept += step;
  }
  return BUSY_SLEEPS_MS.at(-1)! + WAKE_SLACK_MS;
}

interface RunState {
  indexed_to: number;
  lo: number | null;
  hi: number | null;
}

/** The next batch size: the one that would have taken `HOLD_MS`, moved at most 2× at a time. */
function nextBatch(batch: number, ms: number): number {
  const scaled = (batch * HOLD_MS) / Math.max(ms, 1);
  return Math.round(
    Math.min(MAX_BATCH, Math.max(MIN_BATCH, batch / 2, Math.min(batch * 2, scaled))),
  );
}

/**
 * Indexes the words of the runs in `order` on this connection (the search worker's own), one
 * batch of examples per transaction, from one run or several small ones, each run's progress
 * in the same transaction, so a crash or a cancel resumes where the last batch ended. Each
 * batch reads its runs' state inside its transaction, so a run re-indexed in between (its
 * progress reset by the indexer) simply starts over. Rests between batches so that another
 * writer, and a cancel, get in.
 */
export async function fillSlice(
  db: Db,
  task: FillTask,
  signal: AbortSignal,
  now: () => number = () => performance.now(),
): Promise<FillResult> {
  // A run still in example rows waits for the conversion (texts/convert.ts), which resets it.
  const state = db.prepare(
    `SELECT indexed_to, first_rowid AS lo, last_rowid AS hi FROM run_search
     WHERE run_rowid = @run AND ready = 0 AND NOT EXISTS (SELECT 1 FROM examples WHERE run_rowid = @run)`,
  );
  const insert = db.prepare(`INSERT INTO examples_fts (rowid, input, output) VALUES (?, ?, ?)`);
  /**
   * The examples with keys in (from, to], read from their blocks: how many were done. One
   * whose texts cannot be read (its source changed or vanished before the archive copied it)
   * has no words to index: it counts as done and is not found until its run is re-indexed.
   */
  const insertKeys = (reader: TextReader, from: number, to: number): number => {
    let changes = 0;
    for (let key = from + 1; key <= to; key++) {
      const text = reader.text(key);
      if (!text) continue;
      changes += text.unavailable ? 1 : insert.run(key, text.input, text.output).changes;
    }
    return changes;
  };
  const advance = db.prepare(
    `UPDATE run_search SET indexed_to = ?, done = done + ?, ready = ? WHERE run_rowid = ?`,
  );
  const checkpoint = db.prepare(`PRAGMA wal_checkpoint(PASSIVE)`);
  let batch = task.batch ?? task.startBatch;
  /** When the transaction got the lock: a wait for it (BEGIN IMMEDIATE) holds nobody up. */
  let locked = 0;
  /**
   * Kept across transactions, so a block is decoded once however the batches cut it, with
   * where each run's last batch ended.
   */
  let reader = new TextReader(db);
  const reachedTo = new Map<number, number>();
  /** One transaction: up to `batch` keys from the runs in order. False when none is left. */
  const step = (): boolean => {
    locked = now();
    let budget = batch;
    let any = false;
    for (const run of task.order) {
      if (budget <= 0) break;
      const s = state.get({ run }) as RunState | undefined;
      if (!s) continue;
      any = true;
      const from = s.lo === null ? 0 : Math.max(s.indexed_to, s.lo - 1);
      const hi = s.hi ?? from;
      const to = Math.min(hi, from + budget);
      // A run re-indexed since our last batch (its progress reset) has new blocks under the
      // same keys: what the reader kept of it is stale.
      if (reachedTo.has(run) && reachedTo.get(run) !== s.indexed_to) reader = new TextReader(db);
      const changes = to > from ? insertKeys(reader, from, to) : 0;
      advance.run(to, changes, to >= hi ? 1 : 0, run);
      reachedTo.set(run, to);
      budget -= Math.max(1, to - from);
    }
    return any;
  };
  const pause = async () => {
    await sleep(10);
    if (signal.aborted) throw new CancelledError();
  };
  const started = now();
  let transactions = 0;
  let longestHoldMs = 0;
  let longHolds = 0;
  for (;;) {
    if (signal.aborted) throw new CancelledError();
    let committed = 0;
    let held = 0;
    const more = await untilWritable(() => {
      const any = db.transaction(step).immediate();
      committed = now();
      // Up to the commit: what another writer may have waited for.
      held = committed - locked;
      longestHoldMs = Math.max(longestHoldMs, held);
      if (held > LONG_HOLD_MS) longHolds++;
      if (task.batch === null) batch = nextBatch(batch, held);
      return any;
    }, pause);
    transactions++;
    checkpoint.run();
    if (!more) return { more: false, batch, transactions, longestHoldMs, longHolds };
    if (now() - started >= task.sliceMs)
      return { more: true, batch, transactions, longestHoldMs, longHolds };
    // The checkpoint left the lock free too.
    await sleep(Math.max(0, restAfter(held) - (now() - committed)));
  }
}

/**
 * The fill connection: waits briefly for the lock, so a cancel is seen between tries; and
 * copies its writes back into the database itself after each transaction rather than inside
 * the commit (SQLite's automatic checkpoint), so a batch's timing is the time it held the
 * lock — a checkpoint, with its fsyncs, holds no other writer up.
 */
export function prepareFillConnection(db: Db): void {
  db.pragma(`busy_timeout = ${BUSY_MS}`);
  db.pragma('wal_autocheckpoint = 0');
}
