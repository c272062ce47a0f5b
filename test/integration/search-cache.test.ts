import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import type { RequestOutput } from '../../shared/contract';
import { JobManager } from '../../electron/core/jobs/manager';
import { SearchIndexer } from '../../electron/core/search/indexer';
import { searchPending } from '../../electron/core/search/readiness';
import type { Db } from '../../electron/core/db/open';
import type { PairwiseService } from '../../electron/core/service';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function library(count = 50): Promise<Harness> {
  harness = makeService();
  const root = path.join(harness.dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: examples(count) });
  writeMechlensRun(root, {
    id: 'cand',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(count).map((e, i) => (i === 7 ? { ...e, output: 'a walrus' } : e)),
  });
  await harness.service.index([root]);
  await harness.service.search.idle();
  return harness;
}

const runRowid = (db: Db, id: string) =>
  db.prepare(`SELECT rowid FROM runs WHERE id = ?`).pluck().get(id) as number;

/** The run as it is right after its index pass committed: no words indexed yet. */
function unsearchable(db: Db, rowid: number): void {
  db.prepare(
    `DELETE FROM examples_fts WHERE rowid IN (SELECT rowid FROM examples WHERE run_rowid = ?)`,
  ).run(rowid);
  db.prepare(`UPDATE run_search SET indexed_to = 0, done = 0, ready = 0 WHERE run_rowid = ?`).run(
    rowid,
  );
}

async function call<N extends 'examples:page' | 'examples:count'>(
  service: Harness['service'],
  name: N,
  input: unknown,
): Promise<RequestOutput<N>> {
  const answer = await dispatch(service, name, input);
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as RequestOutput<N>;
}

const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;
const quietJobs = (db: Db) => new JobManager(db, { started() {}, progress() {}, finished() {} });

/** A comparison that runs until released: the fill waits for it after each batch. */
function comparing(jobs: JobManager): { release(): void; job: string } {
  let release: () => void = () => undefined;
  const job = jobs.start('compare', 'a comparison', () => new Promise<void>((r) => (release = r)));
  return { release: () => release(), job };
}

/** The library with its candidate run made unsearchable again, as after indexing. */
async function candidateUnsearchable(): Promise<{
  service: PairwiseService;
  db: Db;
  cand: number;
}> {
  const { service } = await library();
  const cand = runRowid(service.db, 'cand');
  unsearchable(service.db, cand);
  return { service, db: service.db, cand };
}

/** Lets a fill of ten rows a batch write one batch, then cancels it: a stop between batches. */
async function stopAfterOneBatch(db: Db, run: number): Promise<void> {
  const jobs = quietJobs(db);
  const indexer = new SearchIndexer(db, jobs, 10);
  const compare = comparing(jobs);
  indexer.schedule();
  while ((searchPending(db, [run])?.done ?? 0) === 0)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const job = jobs.list().find((j) => j.kind === 'search' && j.state === 'running')!;
  jobs.cancel(job.id);
  await jobs.wait(job.id);
  compare.release();
  await jobs.wait(compare.job);
}

describe('search as a background cache', () => {
  it('marks each indexed run searchable only once its words are in the index', async () => {
    const { service } = await library();
    const db = service.db;
    expect(db.prepare(`SELECT ready, done FROM run_search ORDER BY run_rowid`).all()).toEqual([
      { ready: 1, done: 50 },
      { ready: 1, done: 50 },
    ]);
    expect(count(db, `SELECT count(*) FROM examples_fts`)).toBe(100);
    const job = service.jobs.list().find((j) => j.kind === 'search');
    expect(job?.state).toBe('finished');
    expect(job?.progress).toMatchObject({ phase: 'Preparing search' });
  });

  it('answers a search on a pair not yet searchable with its progress, and puts its runs first', async () => {
    const { service } = await library();
    const db = service.db;
    const { key } = await service.compare.run({ experimentId: 'exp-test', resamples: 200 });
    unsearchable(db, runRowid(db, 'cand'));
    const input = { reportKey: key, pair: 0, filter: { search: 'walrus' } };
    const page = await call(service, 'examples:page', input);
    expect(page).toEqual({
      rows: [],
      next: null,
      total: null,
      searchPending: { done: 0, total: 50 },
    });
    const counted = await call(service, 'examples:count', input);
    expect(counted.searchPending).toBeTruthy();
    // An export of the search would miss rows: it says so instead.
    const exported = await dispatch(service, 'export:examplesCsv', input);
    expect(exported).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(!exported.ok && exported.error.message).toMatch(/being prepared/);
    // Without a search the pair pages as usual meanwhile.
    const plain = await call(service, 'examples:page', { reportKey: key, pair: 0 });
    expect(plain.rows).toHaveLength(50);
    expect(plain.searchPending).toBeUndefined();
    await service.search.idle();
    const found = await call(service, 'examples:page', input);
    expect(found.rows.map((r) => r.example_id)).toEqual(['ex-008']);
    expect(found.searchPending).toBeUndefined();
    expect((await dispatch(service, 'export:examplesCsv', input)).ok).toBe(true);
  });

  it('resumes after a stop where its last batch ended, indexing no example twice', async () => {
    const { db, cand } = await candidateUnsearchable();
    await stopAfterOneBatch(db, cand);
    const partial = db
      .prepare(`SELECT done, ready FROM run_search WHERE run_rowid = ?`)
      .get(cand) as { done: number; ready: number };
    expect(partial).toEqual({ done: 10, ready: 0 });
    expect(searchPending(db, [cand])).toEqual({ done: 10, total: 50 });

    await new SearchIndexer(db, quietJobs(db), 7).idle();
    expect(searchPending(db, [cand])).toBeNull();
    expect(count(db, `SELECT count(*) FROM examples_fts`)).toBe(100);
    expect(count(db, `SELECT count(*) FROM examples_fts WHERE examples_fts MATCH '"walrus"'`)).toBe(
      1,
    );
  });

  it('starts a run over when its examples are replaced while it is being filled', async () => {
    const { service, db, cand } = await candidateUnsearchable();
    await stopAfterOneBatch(db, cand);
    // Re-indexed with new texts: the old words go with the old rows, the new ones come in.
    const root = path.join(harness!.dir, 'lib');
    const file = writeMechlensRun(root, {
      id: 'cand',
      name: 'steer',
      experiment: { id: 'exp-test', role: 'intervention' },
      examples: examples(30).map((e) => ({ ...e, output: `${e.output} narwhal` })),
    });
    const { utimesSync } = await import('node:fs');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await service.index([root]);
    await service.search.idle();
    expect(searchPending(db, [cand])).toBeNull();
    expect(count(db, `SELECT count(*) FROM examples_fts`)).toBe(80);
    expect(count(db, `SELECT count(*) FROM examples_fts WHERE examples_fts MATCH '"walrus"'`)).toBe(
      0,
    );
    expect(
      count(db, `SELECT count(*) FROM examples_fts WHERE examples_fts MATCH '"narwhal"'`),
    ).toBe(30);
  });

  it('waits between batches while a comparison runs, unless a search asks for the run', async () => {
    const { db, cand } = await candidateUnsearchable();
    const jobs = quietJobs(db);
    const compare = comparing(jobs);
    const indexer = new SearchIndexer(db, jobs, 10);
    const ready = indexer.idle();
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    while ((searchPending(db, [cand])?.done ?? 0) === 0) await tick();
    // Paused: however long it is left, no second batch comes.
    for (let i = 0; i < 10; i++) await tick();
    expect(searchPending(db, [cand])).toEqual({ done: 10, total: 50 });
    indexer.prioritise([cand]);
    await ready;
    expect(searchPending(db, [cand])).toBeNull();
    compare.release();
    await jobs.wait(compare.job);
  });
});
