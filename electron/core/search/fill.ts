import { setTimeout as sleep } from 'node:timers/promises';
import { untilWritable } from '../db/busy';
import type { Db } from '../db/open';
import { CancelledError } from '../jobs/protocol';
import { TextReader } from '../texts/read';
import { FIRST_PAGES, mergeByHand, mergeStep, nextPages, PROBE_PAGES } from './merges';

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
  /** Pages the first merge step may write (the last slice's, so each slice starts tuned). */
  startPages?: number;
}

export interface FillResult {
  /** False when none of the runs in the order was left to index. */
  more: boolean;
  batch: number;
  pages: number;
  /** Transactions in all, merge steps included: each held the write lock. */
  transactions: number;
  mergeSteps: number;
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

/** One run's part of a transaction: its keys in (from, to] with their texts, read. */
interface Part {
  run: number;
  from: number;
  to: number;
  /** The run's last key: the part that reaches it makes the run searchable. */
  hi: number;
  texts: [key: number, input: string, output: string][];
  /** Examples whose texts cannot be read: done, with no words. */
  unreadable: number;
}

/** A batch read ahead, outside the lock, and the state of the database it was read in. */
interface ReadAhead {
  parts: Part[];
  stamp: string;
}

/**
 * The fill's batches on one connection: read (the runs' state and texts), then written (the
 * words and the runs' progress). A batch is read ahead while the lock is free, and written as
 * read if nothing was written to the database since; else it is read again inside the
 * transaction.
 */
class Batches {
  private readonly state;
  private readonly insert;
  private readonly advance;
  /**
   * Kept across transactions, so a block is decoded once however the batches cut it, with
   * where each run's last written batch ended.
   */
  private reader;
  private readonly reachedTo = new Map<number, number>();
  private readonly changes;

  constructor(
    private readonly db: Db,
    private readonly order: number[],
  ) {
    // A run still in example rows waits for the conversion (texts/convert.ts), which resets it.
    this.state = db.prepare(
      `SELECT indexed_to, first_rowid AS lo, last_rowid AS hi FROM run_search
       WHERE run_rowid = @run AND ready = 0 AND NOT EXISTS (SELECT 1 FROM examples WHERE run_rowid = @run)`,
    );
    this.insert = db.prepare(`INSERT INTO examples_fts (rowid, input, output) VALUES (?, ?, ?)`);
    this.advance = db.prepare(
      `UPDATE run_search SET indexed_to = ?, done = done + ?, ready = ? WHERE run_rowid = ?`,
    );
    this.changes = db.prepare(`SELECT total_changes()`).pluck();
    this.reader = new TextReader(db);
  }

  /**
   * Changes when anything is written: `data_version` when another connection commits (the
   * indexer, the service), `total_changes()` when this one writes (it is the service's own in
   * tests).
   */
  private stamp(): string {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    return `${version}:${this.changes.get() as number}`;
  }

  /**
   * The next batch: up to `batch` keys from the runs in order, with their texts. One whose
   * texts cannot be read (its source changed or vanished before the archive copied it) has no
   * words to index: it counts as done and is not found until its run is re-indexed.
   */
  private read(batch: number): Part[] {
    let budget = batch;
    const parts: Part[] = [];
    for (const run of this.order) {
      if (budget <= 0) break;
      const s = this.state.get({ run }) as RunState | undefined;
      if (!s) continue;
      const from = s.lo === null ? 0 : Math.max(s.indexed_to, s.lo - 1);
      const hi = s.hi ?? from;
      const to = Math.min(hi, from + budget);
      // A run re-indexed since our last batch (its progress reset by the indexer) has new
      // blocks under the same keys: what the reader kept of it is stale.
      if (this.reachedTo.has(run) && this.reachedTo.get(run) !== s.indexed_to) this.forget();
      const part: Part = { run, from, to, hi, texts: [], unreadable: 0 };
      for (let key = from + 1; key <= to; key++) {
        const text = this.reader.text(key);
        if (!text) continue;
        if (text.unavailable) part.unreadable++;
        else part.texts.push([key, text.input, text.output]);
      }
      parts.push(part);
      budget -= Math.max(1, to - from);
    }
    return parts;
  }

  /** Drops the blocks the reader kept: read across another connection's commit, maybe stale. */
  private forget(): void {
    this.reader = new TextReader(this.db);
  }

  /** The next batch, read outside the lock; null when something was written meanwhile. */
  readAhead(batch: number): ReadAhead | null {
    const stamp = this.stamp();
    const parts = this.read(batch);
    if (this.stamp() === stamp) return { parts, stamp };
    this.forget();
    return null;
  }

  /**
   * Inside the transaction: writes the batch read ahead if nothing was written since, else
   * reads one now. `first` writes before the batch, once it is known whether what was read
   * ahead still holds. False when no run was left.
   */
  write(ahead: ReadAhead | null, batch: number, first: () => void = () => {}): boolean {
    let parts = ahead?.parts;
    if (!ahead || this.stamp() !== ahead.stamp) {
      if (ahead) this.forget();
      parts = this.read(batch);
    }
    first();
    for (const part of parts!) {
      let changes = part.unreadable;
      for (const [key, input, output] of part.texts)
        changes += this.insert.run(key, input, output).changes;
      this.advance.run(part.to, changes, part.to >= part.hi ? 1 : 0, part.run);
      this.reachedTo.set(part.run, part.to);
    }
    return parts!.length > 0;
  }
}

/**
 * Indexes the words of the runs in `order` on this connection (the search worker's own), one
 * batch of examples per transaction, from one run or several small ones, each run's progress
 * in the same transaction, so a crash or a cancel resumes where the last batch ended. Each
 * batch is read during the rest before its transaction (reading the texts back was ~40% of the
 * fill's time, which the lock need not cover) and checked in it: a run re-indexed meanwhile
 * (its progress reset by the indexer) is read again as it now is, or simply starts over. The
 * index's segments are merged in transactions of their own after each batch (merges.ts). Rests
 * after every transaction so that another writer, and a cancel, get in.
 */
export async function fillSlice(
  db: Db,
  task: FillTask,
  signal: AbortSignal,
  now: () => number = () => performance.now(),
): Promise<FillResult> {
  const batches = new Batches(db, task.order);
  const checkpoint = db.prepare(`PRAGMA wal_checkpoint(PASSIVE)`);
  let batch = task.batch ?? task.startBatch;
  let pages = task.startPages ?? FIRST_PAGES;
  const pause = async () => {
    await sleep(10);
    if (signal.aborted) throw new CancelledError();
  };
  const started = now();
  const result: FillResult = {
    more: true,
    batch,
    pages,
    transactions: 0,
    mergeSteps: 0,
    longestHoldMs: 0,
    longHolds: 0,
  };
  let restUntil = 0;
  /**
   * Whether FTS5 has segments to merge: each batch's commit adds one. A batch's transaction
   * begins with a step of a page or so (ahead of its inserts, so what it writes is merges
   * alone, and after the check of what was read ahead, which the step's write would spoil), which tells whether merging is owed without a transaction of its own (half the
   * steps after a batch found nothing); when it is, merge steps go until one finds nothing. A
   * slice starts owing, so its first step also makes sure FTS5's own merging is off.
   */
  let owed = true;
  let more = true;
  /** One transaction, after the rest the last one left; returns when it committed. */
  const transaction = async <T>(work: () => T): Promise<{ value: T; held: number }> => {
    await sleep(Math.max(0, restUntil - now()));
    if (signal.aborted) throw new CancelledError();
    /** When the transaction got the lock: a wait for it (BEGIN IMMEDIATE) holds nobody up. */
    let locked = 0;
    const value = await untilWritable(
      () =>
        db
          .transaction(() => {
            locked = now();
            return work();
          })
          .immediate(),
      pause,
    );
    const committed = now();
    // Up to the commit: what another writer may have waited for.
    const held = committed - locked;
    result.longestHoldMs = Math.max(result.longestHoldMs, held);
    if (held > LONG_HOLD_MS) result.longHolds++;
    result.transactions++;
    checkpoint.run();
    // The checkpoint left the lock free too.
    restUntil = committed + restAfter(held);
    return { value, held };
  };
  for (;;) {
    if (signal.aborted) throw new CancelledError();
    const filled = !owed && more;
    if (owed) {
      const step = await transaction(() => {
        mergeByHand(db);
        return mergeStep(db, pages);
      });
      result.mergeSteps++;
      owed = step.value;
      if (owed) pages = nextPages(pages, step.held, HOLD_MS);
    } else if (more) {
      // Read during what is left of the rest after the last transaction.
      const ahead = batches.readAhead(batch);
      const step = await transaction(() => {
        let merging = false;
        const any = batches.write(ahead, batch, () => (merging = mergeStep(db, PROBE_PAGES)));
        return { merging, more: any };
      });
      more = step.value.more;
      // The last batch's segment is merged before the slice says nothing is left.
      owed = step.value.merging || !more;
      if (task.batch === null) batch = nextBatch(batch, step.held);
    }
    // A slice writes a batch at least, and ends after one; the merges it leaves owed are the
    // next slice's first steps. The last batch's merges are done before it says nothing is left.
    if (more ? filled && now() - started >= task.sliceMs : !owed)
      return { ...result, more, batch, pages };
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
