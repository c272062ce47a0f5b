import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import type { RequestOutput } from '../../shared/contract';
import { SearchIndexer } from '../../electron/core/search/indexer';
import { searchPending } from '../../electron/core/search/readiness';
import type { PairwiseService } from '../../electron/core/service';
import type { Db } from '../../electron/core/db/open';
import { examples, writeMechlensRun } from '../fixtures/formats';
import {
  comparing,
  count,
  quietJobs,
  runRowid,
  searchLibrary,
  started,
  STEPWISE,
  stopAfterOneBatch,
  unsearchable,
} from '../fixtures/search';
import type { Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function library(): Promise<Harness> {
  harness = await searchLibrary();
  return harness;
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

    const indexer = new SearchIndexer(db, quietJobs(db), { batch: 7, sliceMs: 0 });
    await indexer.idle();
    await indexer.close();
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
    const indexer = new SearchIndexer(db, jobs, STEPWISE);
    const ready = indexer.idle();
    await started(db, cand);
    // Paused: however long it is left, no second batch comes.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(searchPending(db, [cand])).toEqual({ done: 10, total: 50 });
    indexer.prioritise([cand]);
    await ready;
    expect(searchPending(db, [cand])).toBeNull();
    await compare.release();
    await indexer.close();
  });
});
