import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ftsQuery } from '../../electron/core/compare/filters';
import { migrate, openDatabase } from '../../electron/core/db/open';
import { migrations } from '../../electron/core/db/migrations';
import { addFolder, removeFolder } from '../../electron/core/folders';
import { JobManager } from '../../electron/core/jobs/manager';
import { SearchIndexer } from '../../electron/core/search/indexer';
import { searchPending } from '../../electron/core/search/readiness';
import type { Db } from '../../electron/core/db/open';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';
import { tempDir } from '../fixtures/tmp';
import { storedExamples } from '../fixtures/stored-examples';
import { convertLibrary } from '../../electron/core/texts/convert';

let harness: Harness | null = null;
let cleanup: () => void = () => undefined;
afterEach(async () => {
  await harness?.close();
  harness = null;
  cleanup();
});

/** What the explorer's search finds: example ids of every row whose texts hold all the words. */
function search(db: Db, words: string): string[] {
  const runIds = new Map(
    (db.prepare(`SELECT rowid, id FROM runs`).all() as { rowid: number; id: string }[]).map((r) => [
      r.rowid,
      r.id,
    ]),
  );
  const names = new Map(
    storedExamples(db).map((e) => [e.rowid, `${runIds.get(e.run_rowid)}/${e.example_id}`]),
  );
  const keys = db
    .prepare(`SELECT rowid FROM examples_fts WHERE examples_fts MATCH ?`)
    .pluck()
    .all(ftsQuery(words)) as number[];
  // A key no stored example has would be a stale entry: it shows as such.
  return keys.map((key) => names.get(key) ?? `stale/${key}`).sort();
}

/** FTS5's own check of the index's structure. */
function ftsIntegrity(db: Db): void {
  db.prepare(`INSERT INTO examples_fts(examples_fts, rank) VALUES ('integrity-check', 1)`).run();
}

function touch(file: string): void {
  fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
}

describe('the full-text index, filled per run', () => {
  it('finds every indexed text, and forgets the words of a re-indexed file’s old version', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'library');
    const old = examples(4).map((e, i) => (i === 2 ? { ...e, output: 'a walrus answered' } : e));
    const file = writeMechlensRun(root, { id: 'run-a', name: 'a', examples: old });
    writeMechlensRun(root, { id: 'run-b', name: 'b', examples: examples(3) });
    await harness.service.index([root]);
    await harness.service.search.idle();
    const db = harness.service.db;
    expect(search(db, 'walrus')).toEqual(['run-a/ex-003']);
    expect(search(db, 'number 2')).toEqual(['run-a/ex-002', 'run-b/ex-002']);
    ftsIntegrity(db);

    writeMechlensRun(root, { id: 'run-a', name: 'a', examples: examples(5) });
    touch(file);
    const again = await harness.service.index([root]);
    await harness.service.search.idle();
    expect(again.sources).toMatchObject({ imported: 1, unchanged: 1 });
    expect(search(db, 'walrus')).toEqual([]);
    expect(search(db, 'number 5')).toEqual(['run-a/ex-005']);
    expect(search(db, 'answer 3')).toEqual(['run-a/ex-003', 'run-b/ex-003']);
    ftsIntegrity(db);
  });

  it('forgets every key of a run whose folder is removed, or that is re-indexed with fewer examples', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'library');
    const file = writeMechlensRun(root, { id: 'run-a', name: 'a', examples: examples(6) });
    await harness.service.index([root]);
    await harness.service.search.idle();
    const db = harness.service.db;
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    expect(count(`SELECT count(*) FROM examples_fts`)).toBe(6);

    writeMechlensRun(root, { id: 'run-a', name: 'a', examples: examples(2) });
    touch(file);
    await harness.service.index([root]);
    await harness.service.search.idle();
    expect(count(`SELECT count(*) FROM examples_fts`)).toBe(2);
    expect(search(db, 'number')).toEqual(['run-a/ex-001', 'run-a/ex-002']);

    addFolder(db, root, false);
    removeFolder(db, root);
    expect(count(`SELECT count(*) FROM runs`)).toBe(0);
    expect(count(`SELECT count(*) FROM examples_fts`)).toBe(0);
    expect(count(`SELECT count(*) FROM run_texts`)).toBe(0);
    ftsIntegrity(db);
  });

  it('upgrades a database indexed with the per-row trigger: its words are indexed again in the background', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'old.db');
    const before = new Database(file);
    migrate(before, file, migrations.slice(0, 6));
    before.exec(`
      INSERT INTO sources (path, status, indexed_at) VALUES ('/x.json', 'imported', 'now');
      INSERT INTO projects (id, name, source_format) VALUES ('p', 'p', 'mechlens');
      INSERT INTO experiments (id, project_id, name) VALUES ('e', 'p', 'e');
      INSERT INTO runs (id, source_id, experiment_id, condition_name, identity_hash, settings, format, state, path)
        VALUES ('r', 1, 'e', 'c', 'h', '{}', 'mechlens', 'complete', '/x.json');
      INSERT INTO examples (run_rowid, example_id, input, output, fields, input_hash, output_hash, fields_hash)
        VALUES (1, 'ex-1', 'an old walrus', 'yes', '{}', 'a', 'b', 'c');
    `);
    before.close();

    const db = openDatabase(file);
    try {
      expect(searchPending(db, [1])).toEqual({ done: 0, total: 0 });
      await convertLibrary(db, new AbortController().signal, () => undefined);
      expect(search(db, 'walrus')).toEqual([]);
      const jobs = new JobManager(db, { started() {}, progress() {}, finished() {} });
      const indexer = new SearchIndexer(db, jobs);
      await indexer.idle();
      await indexer.close();
      expect(searchPending(db, [1])).toBeNull();
      expect(search(db, 'walrus')).toEqual(['r/ex-1']);
      const triggers = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)
        .all() as { name: string }[];
      expect(triggers.map((r) => r.name)).toEqual(['runs_keys_ad']);
      db.prepare(`DELETE FROM runs`).run();
      expect(search(db, 'walrus')).toEqual([]);
      ftsIntegrity(db);
    } finally {
      db.close();
    }
  });
});
