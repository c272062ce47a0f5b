import type { Db } from '../db/open';

/**
 * FTS5's merging of the full-text index's segments, done by the fill in steps of its own
 * rather than inside its commits. Left to FTS5, each commit that adds a segment also merges
 * (`automerge`), and a commit that finds 16 segments on a level merges them all at once
 * (`crisismerge`): at 100k pairs such commits held the write lock 50–330 ms after 10–50 ms
 * of inserts, and the service's writes waited behind them. Turned off, a commit only writes
 * its own new segment, and the fill asks for the merging in transactions sized like its
 * batches (`'merge', N`: roughly N pages written), one after another until FTS5 finds nothing
 * left to merge.
 */

/** Segments on a level before FTS5 merges it at once, whatever `automerge` says: kept as a
 * backstop (a fill cancelled mid-way leaves merges owed), far past what the steps leave. */
const CRISIS_MERGE = 64;
const MIN_PAGES = 16;
const MAX_PAGES = 4000;
/** A step that only finds out whether merging is owed: it writes a few pages at most. */
export const PROBE_PAGES = 1;
/** Where the page budget starts: ~8 pages a millisecond on the benchmark's machine. */
export const FIRST_PAGES = 200;

/**
 * Turns FTS5's own merging off, once per database (the options are stored in the index's
 * `examples_fts_config` table, so every connection, the indexer's too, sees them). Call in a
 * write transaction.
 */
export function mergeByHand(db: Db): void {
  const automerge = db
    .prepare(`SELECT v FROM examples_fts_config WHERE k = 'automerge'`)
    .pluck()
    .get() as number | undefined;
  if (automerge === 0) return;
  db.prepare(`INSERT INTO examples_fts (examples_fts, rank) VALUES ('automerge', 0)`).run();
  // FTS5 takes these only as SQL integers, which a JavaScript number binds as only if a BigInt.
  db.prepare(`INSERT INTO examples_fts (examples_fts, rank) VALUES ('crisismerge', ?)`).run(
    BigInt(CRISIS_MERGE),
  );
}

/**
 * One step of merging, up to about `pages` pages written; call in a write transaction. False
 * when FTS5 found nothing to merge (its documented signal: `total_changes()` moves by less
 * than 2).
 */
export function mergeStep(db: Db, pages: number): boolean {
  const changes = db.prepare(`SELECT total_changes()`).pluck();
  const before = changes.get() as number;
  db.prepare(`INSERT INTO examples_fts (examples_fts, rank) VALUES ('merge', ?)`).run(
    BigInt(pages),
  );
  return (changes.get() as number) - before >= 2;
}

/** The next step's pages: those that would have taken `targetMs`, moved at most 2× at a time. */
export function nextPages(pages: number, ms: number, targetMs: number): number {
  const scaled = (pages * targetMs) / Math.max(ms, 1);
  return Math.round(
    Math.min(MAX_PAGES, Math.max(MIN_PAGES, pages / 2, Math.min(pages * 2, scaled))),
  );
}
