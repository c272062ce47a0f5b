import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeComparison, type CompareResult } from '../../electron/core/compare/compute';
import { planComparison } from '../../electron/core/compare/plan';
import { loadRunExamples } from '../../electron/core/compare/load';
import { sha1 } from '../../electron/core/ingest/prepare';
import { hashKey } from '../../electron/core/columns/decode';
import { storedExamples } from '../fixtures/stored-examples';
import { oldLibraryFrom } from '../fixtures/old-library';
import { listExperiments } from '../../electron/core/experiments';
import { PairwiseService } from '../../electron/core/service';
import { evalSample, jsonLog } from '../fixtures/inspect';
import { writeMechlensRun, type ExampleSpec } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness;
let root: string;

/**
 * Ids out of order, ids that sort differently in SQLite (UTF-8 bytes) than in JavaScript (code
 * units), and fields of every kind, mixed across examples: what the column store must give
 * back exactly as the example rows do.
 */
function trickyExamples(seed: number, count: number): ExampleSpec[] {
  const ids = ['\uffeez', '😀a', 'b', 'a', '10', '9', 'Z'];
  return Array.from({ length: count }, (_, i) => {
    const id = i < ids.length ? ids[i]! : `ex-${String((i * 7919) % 1000).padStart(4, '0')}`;
    const fields: Record<string, unknown> = {
      refused: (i + seed) % 3 === 0,
      score: (i * (seed + 3)) % 7,
      label: ['yes', 'no', 'maybe'][(i + seed) % 3],
      mixed: i % 4 === 0 ? 'text' : i % 4 === 1 ? 3.5 : i % 4 === 2 ? null : [i, { b: 1, a: 2 }],
      details: { logprobs: [0.1 * i, -0.2], choice: i % 2 },
    };
    if (i % 5 === 0) delete fields.score;
    if (i % 6 === 0) fields.score = null;
    if (i % 9 === 0) fields['__proto__'] = { polluted: true };
    if (i % 4 === 0) fields['2'] = 'two';
    return {
      id,
      input: `Prompt ${i % 11 === 0 ? seed : 0} ${i}`,
      output: `Answer ${(i * seed) % 5}`,
      fields,
    };
  });
}

function writeInspectLog(dir: string, name: string, model: string, errored: number[]): void {
  const samples = [1, 2, 3, 4, 5, 6].map((id) =>
    evalSample(
      errored.includes(id)
        ? { id, output: '', scores: { match: 'I' }, error: 'RateLimitError: 429' }
        : { id, scores: { match: id % 2 ? 'C' : 'I' } },
    ),
  );
  const log = jsonLog({ model, samples, evalId: `eval${name.padEnd(18, 'X')}` });
  fs.writeFileSync(
    path.join(dir, `2025-05-12T20-28-26-04-00_task_${name}.json`),
    JSON.stringify(log),
  );
}

beforeAll(async () => {
  harness = makeService();
  root = path.join(harness.dir, 'lib');
  const metrics = {
    refusal_rate: { description: 'r', example_field: 'refused', direction: 'lower_is_better' },
    mean_score: { description: 's', example_field: 'score', direction: 'higher_is_better' },
  };
  const runs: [string, string, number, number][] = [
    ['run-ref', 'reference', 1, 60],
    ['run-int', 'intervention', 2, 55],
    ['run-ctl', 'control', 3, 58],
  ];
  for (const [id, role, seed, count] of runs)
    writeMechlensRun(root, {
      id,
      name: role,
      experiment: { id: 'exp-cols', role },
      examples: trickyExamples(seed, count),
      extra: { metric_definitions: metrics },
    });
  const logs = path.join(root, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  writeInspectLog(logs, 'a', 'openai/gpt-4o', [2]);
  writeInspectLog(logs, 'b', 'openai/gpt-4o-mini', [2, 5]);
  await harness.service.index([root]);
}, 60_000);

afterAll(() => harness.close());

/** Every experiment's report and explorer rows, as one text. */
function computeAll(service: PairwiseService, options: { objects?: boolean } = {}): string {
  const results: Record<string, CompareResult> = {};
  for (const experiment of listExperiments(service.db)) {
    const plan = planComparison(service.db, experiment.id, { resamples: 300 });
    results[experiment.id] = computeComparison(
      service.db,
      { ...plan, dbPath: service.db.name },
      () => undefined,
      options,
    );
  }
  return JSON.stringify(results, (_, value: unknown) =>
    ArrayBuffer.isView(value) ? Array.from(value as Float64Array) : value,
  );
}

const stores = (service: PairwiseService) =>
  service.db
    .prepare(`SELECT run_rowid, part, data FROM run_columns ORDER BY run_rowid, part`)
    .all() as { run_rowid: number; part: number; data: Buffer }[];

describe('run column stores', () => {
  it('are written for every indexed run', () => {
    const runs = harness.service.db.prepare(`SELECT count(*) FROM runs`).pluck().get() as number;
    expect(runs).toBe(5);
    expect(new Set(stores(harness.service).map((s) => s.run_rowid)).size).toBe(runs);
  });

  it('load the examples the stored texts give', () => {
    for (const rowid of harness.service.db
      .prepare(`SELECT rowid FROM runs`)
      .pluck()
      .all() as number[]) {
      const byId = (a: { id: string }, b: { id: string }) =>
        a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      const rows = storedExamples(harness.service.db, rowid)
        .map((r) => ({
          id: r.example_id,
          rowid: r.rowid,
          input: hashKey(sha1(r.input)),
          output: hashKey(sha1(r.output)),
          error: r.error,
          fields: JSON.parse(r.fields) as unknown,
        }))
        .sort(byId);
      expect(JSON.stringify(loadRunExamples(harness.service.db, rowid))).toBe(JSON.stringify(rows));
    }
  });

  it('give the same reports and explorer rows as one object per example', () => {
    const fromColumns = computeAll(harness.service);
    expect(fromColumns).toContain('exp-cols');
    expect(computeAll(harness.service, { objects: true })).toBe(fromColumns);
  });

  it('are built on open for runs indexed without one, byte for byte as the indexer writes them', async () => {
    const file = path.join(harness.dir, 'before-columns.db');
    oldLibraryFrom(harness.service.db, file, () => false);
    const service = new PairwiseService({
      dbPath: file,
      host: 'cli',
      version: 'test',
      watch: false,
    });
    try {
      const job = service.jobs.list().find((j) => j.title === 'Preparing runs for comparison');
      expect(job).toBeDefined();
      expect((await service.jobs.wait(job!.id))?.state).toBe('finished');
      expect(stores(service)).toEqual(stores(harness.service));
      const texts = (db: PairwiseService['db']) =>
        db.prepare(`SELECT * FROM run_texts ORDER BY run_rowid, block`).all();
      expect(texts(service.db)).toEqual(texts(harness.service.db));
    } finally {
      await service.close();
    }
  });
});
