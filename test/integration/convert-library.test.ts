import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunDetails } from '../../electron/core/compare/load';
import { dispatch } from '../../electron/core/dispatch';
import { openDatabase } from '../../electron/core/db/open';
import { exportParquet } from '../../electron/core/export/parquet';
import { addFolder } from '../../electron/core/folders';
import { PairwiseService } from '../../electron/core/service';
import { SearchIndexer } from '../../electron/core/search/indexer';
import { searchPending } from '../../electron/core/search/readiness';
import { runRecord } from '../../electron/core/sync/records';
import { ConversionPendingError } from '../../electron/core/texts/convert';
import type { OpenedFinding } from '../../shared/findings';
import type { RequestName, RequestOutput } from '../../shared/contract';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { evalSample, writeEvalLog } from '../fixtures/inspect';
import { runCli } from '../fixtures/cli';
import { oldLibraryFrom } from '../fixtures/old-library';
import { quietJobs } from '../fixtures/search';
import { makeService, type Harness } from '../fixtures/service';
import { storedExampleCount, storedExamples } from '../fixtures/stored-examples';

let harness: Harness;
let root: string;

async function call<N extends RequestName>(
  service: PairwiseService,
  name: N,
  input: unknown,
): Promise<RequestOutput<N>> {
  const answer = await dispatch(service, name, input);
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as RequestOutput<N>;
}

/** Everything a user reads of the library's examples, through the requests that read them. */
async function answers(service: PairwiseService, dir: string): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const experimentId of ['exp-test', 'popularity']) {
    const { key, report } = await service.compare.run({ experimentId, resamples: 200 });
    const reportKey = key;
    const page = await call(service, 'examples:page', { reportKey, pair: 0, limit: 1000 });
    const later = await call(service, 'examples:page', {
      reportKey,
      pair: 0,
      after: page.next,
      limit: 300,
    });
    const changed = await call(service, 'examples:page', {
      reportKey,
      pair: 0,
      sort: 'output_changed',
      descending: true,
      limit: 100,
    });
    const ids = page.rows.slice(0, 3).map((r) => r.example_id);
    const details = [];
    const traces = [];
    for (const exampleId of [...ids, page.rows.at(-1)!.example_id]) {
      details.push(await call(service, 'examples:detail', { reportKey, pair: 0, exampleId }));
      traces.push(await call(service, 'examples:trace', { reportKey, pair: 0, exampleId }));
    }
    const search = await call(service, 'examples:page', {
      reportKey,
      pair: 0,
      filter: { search: 'walrus' },
    });
    const csv = await call(service, 'export:examplesCsv', { reportKey, pair: 0 });
    out[experimentId] = { report, page, later, changed, details, traces, search, csv };
  }
  const runs = service.db.prepare(`SELECT id FROM runs ORDER BY id`).pluck().all() as string[];
  out.records = await Promise.all(runs.map((id) => runRecord(service.db, id)));
  const parquet = await exportParquet(service.db, path.join(dir, 'parquet'));
  out.parquet = { ...parquet, dir: null };
  out.parquetExamples = fs.statSync(path.join(dir, 'parquet', 'examples.parquet')).size;
  return out;
}

function writeLibrary(dir: string): string {
  const lib = path.join(dir, 'lib');
  // Past one block (1024 examples), so keys, blocks and their boundaries all matter.
  const many = examples(1500);
  writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: many });
  writeMechlensRun(lib, {
    id: 'cand',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(1400, (i) => ({ refused: i % 3 === 0, score: i % 4 })).map((e, i) =>
      i === 1100 ? { ...e, output: 'a walrus' } : e,
    ),
  });
  const logs = path.join(lib, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  for (const [name, model] of [
    ['a', 'openai/gpt-4o-mini'],
    ['b', 'openai/gpt-4o'],
  ] as const)
    writeEvalLog(
      path.join(logs, `2025-05-13T00-28-1${name === 'a' ? 3 : 4}_popularity_${name}.eval`),
      'finished',
      {
        model,
        evalId: `eval${name.toUpperCase().repeat(18)}`,
        samples: [1, 2, 3].map((i) =>
          evalSample({
            id: `syc-00${i}`,
            output: `${model} answers ${i}${i === 2 ? ' walrus' : ''}`,
            events: [{ event: 'model', model, output: { completion: `${model} answers ${i}` } }],
          }),
        ),
      },
    );
  return lib;
}

let fresh: unknown;
let pinned: OpenedFinding;

beforeAll(async () => {
  harness = makeService();
  root = writeLibrary(harness.dir);
  await harness.service.index([root]);
  await harness.service.search.idle();
  const view = await call(harness.service, 'findings:create', {
    experimentId: 'exp-test',
    resamples: 200,
  });
  const { key } = harness.service.compare.cached({ experimentId: 'exp-test', resamples: 200 })!;
  pinned = await call(harness.service, 'findings:pin', {
    findingId: view.finding.id,
    reportKey: key,
    pair: 0,
    exampleId: 'ex-1101',
  });
  fresh = await answers(harness.service, path.join(harness.dir, 'fresh'));
}, 120_000);

afterAll(() => harness.close());

/** A copy of the library as an older Pairwise left it, in a folder of its own. */
function oldCopy(folder: string, withColumns: (runId: string) => boolean): string {
  const dir = path.join(harness.dir, folder);
  fs.mkdirSync(dir);
  const file = path.join(dir, 'pairwise.db');
  oldLibraryFrom(harness.service.db, file, withColumns);
  return file;
}

function openService(file: string, watch: boolean): PairwiseService {
  return new PairwiseService({ dbPath: file, host: 'cli', version: 'test', watch });
}

describe('a library indexed before texts moved into blocks', () => {
  it('refuses, with its progress, a request for a run not yet converted', async () => {
    const file = path.join(harness.dir, 'waiting.db');
    oldLibraryFrom(harness.service.db, file, (runId) => runId === 'ref');
    const db = openDatabase(file);
    try {
      expect(db.prepare(`SELECT count(*) FROM examples`).pluck().get()).toBe(2906);
      const cand = db.prepare(`SELECT rowid FROM runs WHERE id = 'cand'`).pluck().get() as number;
      const load = () => loadRunDetails(db, 'cand', 'steer', 'intervention');
      expect(load).toThrow(ConversionPendingError);
      expect(load).toThrow(/being converted: 0 of 4 runs done/);
      // Old rowids never pass for keys: transcripts are parked, the search index is empty.
      expect(
        db.prepare(`SELECT min(example_rowid) FROM example_traces`).pluck().get(),
      ).toBeLessThan(0);
      expect(db.prepare(`SELECT count(*) FROM examples_fts`).pluck().get()).toBe(0);
      // The search fill leaves a run in rows aside (no busy wait for the conversion).
      const search = new SearchIndexer(db, quietJobs(db));
      await search.idle();
      await search.close();
      expect(searchPending(db, [cand])).toEqual({ done: 0, total: 1400 });
      expect(db.prepare(`SELECT count(*) FROM examples_fts`).pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('is converted on open, and then answers exactly as a fresh index of the same files', async () => {
    const dir = path.join(harness.dir, 'old');
    const service = openService(
      oldCopy('old', (runId) => runId === 'ref'),
      false,
    );
    try {
      const job = service.jobs.list().find((j) => j.title === 'Preparing runs for comparison');
      expect(job).toBeDefined();
      await service.converted();
      expect((await service.jobs.wait(job!.id))?.state).toBe('finished');
      await service.search.idle();
      const db = service.db;
      expect(db.prepare(`SELECT count(*) FROM examples`).pluck().get()).toBe(0);
      expect(storedExamples(db)).toEqual(storedExamples(harness.service.db));
      // Byte for byte what the indexer writes: blocks, column stores, transcripts by key.
      for (const table of ['run_texts', 'run_columns', 'example_traces'])
        expect(db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all(), table).toEqual(
          harness.service.db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all(),
        );
      expect(db.prepare(`SELECT count(*) FROM examples_fts`).pluck().get()).toBe(
        storedExampleCount(db),
      );
      // The finding keeps the example it pinned, with the texts frozen when it was pinned.
      const finding = await call(service, 'findings:get', { findingId: pinned.finding.id });
      expect(finding.body.pinned).toEqual(pinned.body.pinned);
      expect(await answers(service, dir)).toEqual(fresh);
    } finally {
      await service.close();
    }
  }, 120_000);

  it('is converted before a watched folder is rescanned at open', async () => {
    const file = oldCopy('watched', () => false);
    const db = openDatabase(file);
    addFolder(db, root, true);
    db.close();
    const service = openService(file, true);
    try {
      const titles = () => service.jobs.list().map((j) => j.title);
      expect(titles()).toContain('Preparing runs for comparison');
      expect(titles()).not.toContain(`Updating ${path.basename(root)}`);
      await service.converted();
      await new Promise((resolve) => setImmediate(resolve));
      const pass = service.jobs.list().find((j) => j.title === `Updating ${path.basename(root)}`);
      expect(pass).toBeDefined();
      expect((await service.jobs.wait(pass!.id))?.state).toBe('finished');
      expect(storedExamples(service.db)).toEqual(storedExamples(harness.service.db));
    } finally {
      await service.close();
    }
  }, 120_000);

  it('is waited for by a one-shot command, which then answers as on a fresh index', async () => {
    const file = path.join(harness.dir, 'cli.db');
    oldLibraryFrom(harness.service.db, file, () => false);
    const args = ['--experiment', 'exp-test', '--search', 'walrus', '--json'];
    const old = runCli(['examples', '--db', file, ...args]);
    expect(old.stderr).not.toMatch(/pairwise:/);
    expect(old.status).toBe(0);
    const page = JSON.parse(old.stdout) as { rows: { example_id: string }[] };
    expect(page.rows.map((r) => r.example_id)).toEqual(['ex-1101']);
  }, 60_000);
});
