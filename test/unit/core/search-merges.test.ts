import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../electron/core/db/open';
import { mergeByHand, mergeStep, nextPages } from '../../../electron/core/search/merges';

/** The fill's index as migration 015 makes it, with small pages so merges span many. */
function index(): Db {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE examples_fts USING fts5(
    input, output, content='', contentless_delete=1, tokenize='unicode61', detail=none)`);
  db.exec(`INSERT INTO examples_fts (examples_fts, rank) VALUES ('pgsz', 64)`);
  return db as unknown as Db;
}

/** `batches` commits of `size` rows each, as the fill's transactions add them. */
function fill(db: Db, batches: number, size: number): void {
  const insert = db.prepare(`INSERT INTO examples_fts (rowid, input, output) VALUES (?, ?, ?)`);
  let key = 0;
  for (let b = 0; b < batches; b++)
    db.transaction(() => {
      for (let i = 0; i < size; i++, key++)
        insert.run(key, `walrus ${key % 7} word${key}`, `narwhal w${key % 13} x${key}`);
    })();
}

const pages = (db: Db) =>
  new Set(db.prepare(`SELECT rowid FROM examples_fts_data`).pluck().all() as number[]);

const matches = (db: Db, query: string) =>
  db
    .prepare(`SELECT rowid FROM examples_fts WHERE examples_fts MATCH ? ORDER BY rowid`)
    .pluck()
    .all(query);

describe("the full-text index's merges, done by hand", () => {
  it('leaves the merging out of the commits once turned off', () => {
    const db = index();
    db.transaction(() => mergeByHand(db))();
    fill(db, 40, 30);
    // Nothing merged in the commits: every one of the 40 segments is still there to merge.
    expect(db.transaction(() => mergeStep(db, 16))()).toBe(true);
    // Turning it off is stored once, and asked again is no write.
    const changes = db.prepare(`SELECT total_changes()`).pluck();
    const before = changes.get();
    db.transaction(() => mergeByHand(db))();
    expect(changes.get()).toBe(before);
  });

  it('writes about the pages asked for in a step, until nothing is left to merge', () => {
    const db = index();
    db.transaction(() => mergeByHand(db))();
    fill(db, 40, 30);
    const queries = ['walrus', 'w3', 'x1*', 'narwhal AND w5', 'word39'];
    const before = queries.map((q) => matches(db, q));
    let steps = 0;
    let total = 0;
    for (;;) {
      const had = pages(db);
      const worked = db.transaction(() => mergeStep(db, 16))();
      const written = [...pages(db)].filter((rowid) => !had.has(rowid)).length;
      // A step stops near its budget (the page that passes it, the segment's index pages).
      expect(written).toBeLessThanOrEqual(2 * 16);
      total += written;
      if (!worked) break;
      steps++;
      expect(steps).toBeLessThan(1000);
    }
    // Merged at once, the same work would have held one transaction many times as long.
    expect(total).toBeGreaterThan(5 * 2 * 16);
    expect(queries.map((q) => matches(db, q))).toEqual(before);
    db.exec(`INSERT INTO examples_fts (examples_fts) VALUES ('integrity-check')`);
  });

  it('sizes the next step to the hold it aims at, moving at most 2× at a time', () => {
    expect(nextPages(200, 15, 30)).toBe(400);
    expect(nextPages(200, 60, 30)).toBe(100);
    expect(nextPages(200, 1000, 30)).toBe(100);
    expect(nextPages(200, 0, 30)).toBe(400);
    expect(nextPages(16, 1000, 30)).toBe(16);
  });
});
