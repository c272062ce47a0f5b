import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ftsQuery } from '../../electron/core/compare/filters';
import { dispatch } from '../../electron/core/dispatch';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { fillSlice, prepareFillConnection } from '../../electron/core/search/fill';
import { mergeStep } from '../../electron/core/search/merges';
import { SearchIndexer } from '../../electron/core/search/indexer';
import { pendingRuns, searchPending } from '../../electron/core/search/readiness';
import type { RequestOutput } from '../../shared/contract';
import { writeMechlensRun } from '../fixtures/formats';
import {
  comparing,
  count,
  quietJobs,
  runRowid,
  searchLibrary,
  started,
  STEPWISE,
  tick,
  unsearchable,
} from '../fixtures/search';
import { makeService, type Harness } from '../fixtures/service';
import { storedExamples } from '../fixtures/stored-examples';
import { KEY_SPAN, keySpan } from '../../electron/core/texts/keys';
import { TextReader } from '../../electron/core/texts/read';
import { encodeJsonBlock } from '../../electron/core/texts/blocks';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** Every run of the library made unsearchable again, as right after indexing. */
function allUnsearchable(db: Db): number[] {
  const runs = db.prepare(`SELECT rowid FROM runs ORDER BY rowid`).pluck().all() as number[];
  for (const run of runs) unsearchable(db, run);
  return runs;
}

const progress = (db: Db, run: number) =>
  db.prepare(`SELECT done, ready FROM run_search WHERE run_rowid = ?`).get(run) as {
    done: number;
    ready: number;
  };

describe('the search fill, in its worker', () => {
  it("writes off the service's thread: its progress moves while that thread is busy", async () => {
    harness = await searchLibrary(3000);
    const db = harness.service.db;
    const [run] = allUnsearchable(db);
    const done = () => count(db, `SELECT sum(done) FROM run_search`);
    // One long slice of small batches: the worker goes on without the service's thread.
    const indexer = new SearchIndexer(db, quietJobs(db), { batch: 20, sliceMs: 600_000 });
    const ready = indexer.idle();
    await started(db, run!);
    const before = done();
    expect(before).toBeLessThan(6000);
    // The service's thread does nothing but look, synchronously: no event turn, no request.
    const deadline = Date.now() + 60_000;
    while (done() === before && Date.now() < deadline);
    expect(done()).toBeGreaterThan(before);
    await ready;
    expect(pendingRuns(db)).toEqual([]);
    await indexer.close();
  });

  it('answers requests while the fill waits for the write lock, and fills once it is free', async () => {
    harness = await searchLibrary(200);
    const { service } = harness;
    const db = service.db;
    const { key } = await service.compare.run({ experimentId: 'exp-test', resamples: 200 });
    const [ref] = allUnsearchable(db);
    // Paused after its first batch (a comparison runs) until a search asks for the run.
    const compare = comparing(service.jobs);
    const indexer = new SearchIndexer(db, service.jobs, STEPWISE);
    indexer.schedule();
    await started(db, ref!);
    // Another writer holds the lock: the fill cannot write its next batch until it lets go.
    const other = openDatabase(db.name);
    other.prepare('BEGIN IMMEDIATE').run();
    indexer.prioritise([ref!]);
    for (let i = 0; i < 10; i++) await tick();
    const page = await dispatch(service, 'examples:page', { reportKey: key, pair: 0 });
    expect(page.ok && (page.value as RequestOutput<'examples:page'>).rows).toHaveLength(200);
    expect(progress(db, ref!)).toEqual({ done: 10, ready: 0 });
    other.prepare('COMMIT').run();
    other.close();
    while (progress(db, ref!).ready === 0) await tick();
    await compare.release();
    await indexer.idle();
    expect(pendingRuns(db)).toEqual([]);
    await indexer.close();
  });

  it("starts neither its worker nor a slice while a search's scans run, then fills", async () => {
    harness = await searchLibrary(50);
    const db = harness.service.db;
    allUnsearchable(db);
    const indexer = new SearchIndexer(db, quietJobs(db), STEPWISE);
    let scanning = true;
    let asked = 0;
    vi.spyOn(indexer.scans, 'busy').mockImplementation(() => {
      asked++;
      return scanning;
    });
    const workers = vi.spyOn(indexer, 'workers');
    indexer.schedule();
    while (asked < 3) await tick();
    expect(workers).not.toHaveBeenCalled();
    scanning = false;
    await indexer.idle();
    expect(pendingRuns(db)).toEqual([]);
    await indexer.close();
  });

  it("fills a search's runs first, then the others, whenever the search comes", async () => {
    harness = await searchLibrary(50, 2);
    const db = harness.service.db;
    allUnsearchable(db);
    const [ref, cand, first, second] = ['ref', 'cand', 'more-0', 'more-1'].map((id) =>
      runRowid(db, id),
    ) as [number, number, number, number];
    const jobs = quietJobs(db);
    // While a comparison runs, only runs a search waits for are filled.
    const compare = comparing(jobs);
    const indexer = new SearchIndexer(db, jobs, STEPWISE);
    indexer.prioritise([second]);
    while (progress(db, second).ready === 0) await tick();
    for (let i = 0; i < 10; i++) await tick();
    expect([ref, cand, first].map((run) => progress(db, run).done)).toEqual([0, 0, 0]);
    // A second search, for another pair, while the fill waits.
    indexer.prioritise([first, cand]);
    while (progress(db, first).ready === 0 || progress(db, cand).ready === 0) await tick();
    for (let i = 0; i < 10; i++) await tick();
    expect(progress(db, ref)).toEqual({ done: 0, ready: 0 });
    await compare.release();
    await indexer.idle();
    expect(pendingRuns(db)).toEqual([]);
    await indexer.close();
  });

  it('marks a run ready exactly when its last example is indexed, each batch in step with the index', async () => {
    harness = await searchLibrary(45, 1);
    const db = harness.service.db;
    const runs = allUnsearchable(db);
    const worker = openDatabase(db.name);
    prepareFillConnection(worker);
    const inRun = {
      get: (run: number) => {
        const span = keySpan(run, KEY_SPAN)!;
        return count(
          db,
          `SELECT count(*) FROM examples_fts WHERE rowid BETWEEN ${span.first} AND ${span.last}`,
        );
      },
    };
    const task = { dbPath: db.name, order: runs, batch: 7, startBatch: 7, sliceMs: 0 };
    let transactions = 0;
    for (;;) {
      const { more } = await fillSlice(worker, task, new AbortController().signal);
      if (!more) break;
      transactions++;
      for (const run of runs) {
        const { done, ready } = progress(db, run);
        expect(inRun.get(run)).toBe(done);
        expect(ready).toBe(done === 45 ? 1 : 0);
      }
    }
    worker.close();
    // 135 examples, 7 keys a transaction, a run's last batch shared with the next run.
    expect(transactions).toBe(Math.ceil(135 / 7));
    expect(count(db, `SELECT count(*) FROM examples_fts`)).toBe(135);
  });

  it('merges the index in steps of its own, none left owed when the fill ends, and finds every row', async () => {
    harness = await searchLibrary(300, 2);
    const db = harness.service.db;
    // What the index answered when the service filled it: the reference.
    const searches = ['"walrus"', '"prompt"*', '"answer" AND "3"*'];
    const answers = () =>
      searches.map((q) =>
        db
          .prepare(`SELECT rowid FROM examples_fts WHERE examples_fts MATCH ? ORDER BY rowid`)
          .pluck()
          .all(q),
      );
    const before = answers();
    db.exec(`INSERT INTO examples_fts (examples_fts) VALUES ('delete-all')`);
    const runs = allUnsearchable(db);
    const worker = openDatabase(db.name);
    prepareFillConnection(worker);
    // Small batches, so the index has far more segments than FTS5 leaves unmerged.
    const task = { dbPath: db.name, order: runs, batch: 20, startBatch: 20, sliceMs: 600_000 };
    const result = await fillSlice(worker, task, new AbortController().signal);
    worker.close();
    expect(result).toMatchObject({ more: false });
    expect(result.mergeSteps).toBeGreaterThan(5);
    // 1,200 examples in batches of 20, and the one that finds nothing left.
    expect(result.transactions).toBe(61 + result.mergeSteps);
    const automerge = db.prepare(`SELECT v FROM examples_fts_config WHERE k = 'automerge'`);
    expect(automerge.pluck().get()).toBe(0);
    // The fill merged what FTS5 would have: a step now finds nothing to merge.
    expect(db.transaction(() => mergeStep(db, 100))()).toBe(false);
    expect(answers()).toEqual(before);
    expect(before.map((rows) => rows.length)).not.toContain(0);
    db.exec(`INSERT INTO examples_fts (examples_fts) VALUES ('integrity-check')`);
  });

  it("reads a batch by its key range, never by walking the run's examples", async () => {
    harness = await searchLibrary(3000);
    const db = harness.service.db;
    const [run] = allUnsearchable(db);
    const blocks = vi.spyOn(TextReader.prototype, 'block');
    try {
      const task = { dbPath: db.name, order: [run!], batch: 100, startBatch: 100, sliceMs: 0 };
      const { more } = await fillSlice(db, task, new AbortController().signal);
      expect(more).toBe(true);
      // The first 100 keys lie in the run's first block: nothing else is read.
      expect(new Set(blocks.mock.calls.map((call) => call.join(':')))).toEqual(
        new Set([`${run}:0`]),
      );
      expect(progress(db, run!)).toEqual({ done: 100, ready: 0 });
    } finally {
      blocks.mockRestore();
    }
  });

  it('reads a run re-indexed between two of its batches from its new blocks', async () => {
    harness = await searchLibrary(20);
    const db = harness.service.db;
    const cand = runRowid(db, 'cand');
    unsearchable(db, cand);
    const rows = storedExamples(db, cand).map((e) => ({ ...e, output: `narwhal ${e.example_id}` }));
    let calls = 0;
    // After the first batch was read ahead, the run is replaced as the indexer replaces it (new
    // blocks under the same keys, its progress reset), on the fill's own connection here.
    const now = () => {
      if (++calls === 3) {
        db.prepare(`UPDATE run_texts SET data = ? WHERE run_rowid = ? AND block = 0`).run(
          encodeJsonBlock(rows),
          cand,
        );
        unsearchable(db, cand);
      }
      return performance.now();
    };
    const task = { dbPath: db.name, order: [cand], batch: 7, startBatch: 7, sliceMs: 600_000 };
    expect(await fillSlice(db, task, new AbortController().signal, now)).toMatchObject({
      more: false,
    });
    expect(
      count(db, `SELECT count(*) FROM examples_fts WHERE examples_fts MATCH '"narwhal"'`),
    ).toBe(20);
    expect(count(db, `SELECT count(*) FROM examples_fts WHERE examples_fts MATCH '"walrus"'`)).toBe(
      0,
    );
  });

  it('reads a batch again when the run is re-indexed between its read ahead and its transaction', async () => {
    harness = await searchLibrary(20);
    const db = harness.service.db;
    const cand = runRowid(db, 'cand');
    unsearchable(db, cand);
    const rows = storedExamples(db, cand).map((e) => ({ ...e, output: `narwhal ${e.example_id}` }));
    // The fill on its own connection, as in its worker; the indexer writes on another.
    const fill = openDatabase(db.name);
    prepareFillConnection(fill);
    let calls = 0;
    // The second call comes after the first batch was read ahead, before its transaction.
    const now = () => {
      if (++calls === 2) {
        db.prepare(`UPDATE run_texts SET data = ? WHERE run_rowid = ? AND block = 0`).run(
          encodeJsonBlock(rows),
          cand,
        );
        unsearchable(db, cand);
      }
      return performance.now();
    };
    const task = { dbPath: db.name, order: [cand], batch: 7, startBatch: 7, sliceMs: 600_000 };
    try {
      expect(await fillSlice(fill, task, new AbortController().signal, now)).toMatchObject({
        more: false,
      });
    } finally {
      fill.close();
    }
    expect(
      count(db, `SELECT count(*) FROM examples_fts WHERE examples_fts MATCH '"narwhal"'`),
    ).toBe(20);
    expect(count(db, `SELECT count(*) FROM examples_fts WHERE examples_fts MATCH '"walrus"'`)).toBe(
      0,
    );
  });

  it('finds the same examples as a column-detail index of the same texts would', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'lib');
    const texts = [
      ['Café au lait, s’il vous plaît', 'Die Straße ist naß'],
      ["Don't stop", 'x-ray and X-Men'],
      ['Ελληνικά κείμενα', 'Кириллица и латиница'],
      ['naïve résumé', 'NAÏVE RESUME 42'],
      ['walrus walruses', 'a Walrus in 2024'],
      ['', 'école e\u0301cole'],
    ];
    writeMechlensRun(root, {
      id: 'texts',
      examples: texts.map(([input, output], i) => ({
        id: `t-${i}`,
        input: input!,
        output: output!,
      })),
    });
    await harness.service.index([root]);
    await harness.service.search.idle();
    const reference = new Database(':memory:');
    reference.exec(
      `CREATE VIRTUAL TABLE f USING fts5(input, output, content='', contentless_delete=1,
       tokenize='unicode61', detail=column)`,
    );
    const insert = reference.prepare(`INSERT INTO f (rowid, input, output) VALUES (?, ?, ?)`);
    const rows = storedExamples(harness.service.db);
    for (const row of rows) insert.run(row.rowid, row.input, row.output);
    const searches = ['caf', 'cafe', 'strasse', 'straße', "don't", 'x ray', 'ελλην', 'кир'];
    searches.push('naive', 'NAÏV', 'resume 4', 'walrus', 'walruses', 'ecole', 'é', 'zzz');
    for (const search of searches) {
      const query = ftsQuery(search)!;
      const ours = harness.service.db
        .prepare(`SELECT rowid FROM examples_fts WHERE examples_fts MATCH ? ORDER BY rowid`)
        .pluck()
        .all(query);
      const theirs = reference
        .prepare(`SELECT rowid FROM f WHERE f MATCH ? ORDER BY rowid`)
        .pluck()
        .all(query);
      expect({ search, rowids: ours }).toEqual({ search, rowids: theirs });
    }
    expect(searchPending(harness.service.db, [runRowid(harness.service.db, 'texts')])).toBeNull();
    reference.close();
  });
});
