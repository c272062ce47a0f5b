import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readReport } from '../../electron/core/compare/store';
import { cachedReportView } from '../../shared/report-view';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { callOk, makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

function call<T>(name: string, input: unknown): Promise<T> {
  return callOk<T>(harness!.service, name, input);
}

function library(dir: string): string {
  const root = path.join(dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: examples(40) });
  writeMechlensRun(root, {
    id: 'steer',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(40, (i) => ({ refused: i % 4 === 0, score: (i % 5) + 1 })),
  });
  writeMechlensRun(root, {
    id: 'ctrl',
    name: 'control',
    experiment: { id: 'exp-test', role: 'control' },
    examples: examples(41, (i) => ({ refused: i % 2 === 0, score: (i % 5) + 1 })),
  });
  return root;
}

interface ReportAnswer {
  key: string;
  report: {
    experiment: { reference: string };
    comparisons: {
      candidate: { condition: string };
      criteria: { field: string; regressed: number; improved: number }[];
    }[];
  };
}

describe('comparisons through the service', () => {
  it('computes in a worker, caches, and invalidates when a run is re-indexed with new bytes', async () => {
    harness = makeService();
    const root = library(harness.dir);
    await harness.service.index([root]);
    const settings = { experimentId: 'exp-test', resamples: 1000 };
    expect(await call('compare:report', settings)).toBeNull();
    const first = await harness.service.compare.run(settings);
    expect(first.report.comparisons.map((c) => c.candidate.condition)).toEqual([
      'control',
      'steer',
    ]);
    const cached = await call<ReportAnswer>('compare:report', settings);
    expect(cached.key).toBe(first.key);
    // What the worker handed back to run() is what it saved, and the app is given its view.
    expect(readReport(harness.service.db, first.key)).toEqual(first);
    expect(cached).toEqual(cachedReportView(first));

    const file = path.join(root, '.mechlens/runs/steer.json');
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as { examples: { output: string }[] };
    record.examples[0]!.output = 'A different answer.';
    fs.writeFileSync(file, JSON.stringify(record));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    await harness.service.index([root]);
    expect(await call('compare:report', settings)).toBeNull();
    const second = await harness.service.compare.run(settings);
    expect(second.key).not.toBe(first.key);
    // The worker kept the runs' column stores from the first comparison: not the edited one's.
    const changed = (answer: typeof first) =>
      answer.report.comparisons.find((c) => c.candidate.condition === 'steer')!.examples
        .output_changed;
    expect(changed(second)).not.toEqual(changed(first));
  });

  it('pages examples by key with filters, search and detail', async () => {
    harness = makeService();
    await harness.service.index([library(harness.dir)]);
    await harness.service.search.idle();
    const { key, report } = await harness.service.compare.run({
      experimentId: 'exp-test',
      resamples: 500,
    });
    const pair = report.comparisons.findIndex((c) => c.candidate.condition === 'steer');
    const regressions = report.comparisons[pair]!.criteria.find((c) => c.field === 'refused')!;
    type Page = {
      rows: { example_id: string; classes: Record<string, string> }[];
      next: string | null;
      total: number;
    };
    const all: string[] = [];
    let after: string | null = null;
    do {
      const page: Page = await call<Page>('examples:page', {
        reportKey: key,
        pair,
        limit: 7,
        after,
      });
      all.push(...page.rows.map((r) => r.example_id));
      after = page.next;
    } while (after);
    expect(all).toHaveLength(40);
    expect([...all].sort()).toEqual(all);
    const improved = await call<Page>('examples:page', {
      reportKey: key,
      pair,
      filter: { criterion: 'refused', changeClass: 'improved' },
    });
    expect(improved.total).toBe(regressions.improved);
    expect(improved.rows.every((r) => r.classes.refused === 'improved')).toBe(true);
    const searched = await call<Page>('examples:page', {
      reportKey: key,
      pair,
      filter: { search: 'Prompt number 17' },
    });
    expect(searched.rows.map((r) => r.example_id)).toEqual(['ex-017']);
    const hostile = await call<Page>('examples:page', {
      reportKey: key,
      pair,
      filter: { search: '" OR NEAR(' },
    });
    expect(hostile.total).toBe(0);
    const detail = await call<{ reference: { output: string }; candidate: { output: string } }>(
      'examples:detail',
      {
        reportKey: key,
        pair,
        exampleId: 'ex-017',
      },
    );
    expect(detail.reference.output).toBe('Answer number 17.');
    const onlyOne = report.comparisons.findIndex((c) => c.candidate.condition === 'control');
    const side = await call<Page>('examples:page', {
      reportKey: key,
      pair: onlyOne,
      filter: { side: 'candidate' },
    });
    expect(side.rows.map((r) => r.example_id)).toEqual(['ex-041']);
  });

  it('sorts the examples by how far they moved under a criterion, largest regression first', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'lib');
    writeMechlensRun(root, {
      id: 'ref',
      name: 'reference',
      examples: examples(6, () => ({ score: 5, verdict: 'ok' })),
    });
    writeMechlensRun(root, {
      id: 'steer',
      name: 'steer',
      experiment: { id: 'exp-test', role: 'intervention' },
      // ex-001 has no score on this side: it has no difference and is listed last.
      examples: examples(6, (i) =>
        i === 0 ? { verdict: 'ok' } : { score: [5, 2, 7, 4, 5][i - 1]!, verdict: 'ok' },
      ),
    });
    await harness.service.index([root]);
    const { key } = await harness.service.compare.run({ experimentId: 'exp-test', resamples: 200 });
    type Page = { rows: { example_id: string }[]; next: string | null };
    const ids: string[] = [];
    let after: string | null = null;
    do {
      const page: Page = await call<Page>('examples:page', {
        reportKey: key,
        pair: 0,
        sort: 'delta',
        sortCriterion: 'score',
        limit: 2,
        after,
      });
      ids.push(...page.rows.map((r) => r.example_id));
      after = page.next;
    } while (after);
    // Differences: ex-002 0, ex-003 −3, ex-004 +2, ex-005 −1, ex-006 0.
    expect(ids).toEqual(['ex-003', 'ex-005', 'ex-002', 'ex-006', 'ex-004', 'ex-001']);
  });

  it('a hand-picked reference survives a re-index and changes the comparison', async () => {
    harness = makeService();
    const root = library(harness.dir);
    await harness.service.index([root]);
    await call('conditions:setRole', {
      experimentId: 'exp-test',
      condition: 'control',
      role: 'reference',
    });
    await harness.service.index([root]);
    const conditions = await call<{ name: string; role: string }[]>('conditions:list', {
      experimentId: 'exp-test',
    });
    expect(conditions.find((c) => c.role === 'reference')?.name).toBe('control');
    expect(conditions.find((c) => c.name === 'reference')?.role).toBe('unknown');
    const { report } = await harness.service.compare.run({
      experimentId: 'exp-test',
      resamples: 500,
    });
    expect(report.experiment.reference).toBe('control');
  });

  it('cancels a comparison: nothing is written', async () => {
    harness = makeService();
    await harness.service.index([library(harness.dir)]);
    const { jobId } = await call<{ jobId: string }>('compare:start', {
      experimentId: 'exp-test',
      resamples: 200_000,
    });
    await call('jobs:cancel', { jobId });
    const job = await harness.service.jobs.wait(jobId);
    expect(job?.state).toBe('cancelled');
    expect(harness.service.db.prepare(`SELECT COUNT(*) AS n FROM reports`).get()).toEqual({ n: 0 });
    expect(harness.service.db.prepare(`SELECT COUNT(*) AS n FROM pair_arrays`).get()).toEqual({
      n: 0,
    });
  });
});

describe('experiments with no declared or telling reference', () => {
  it('compare against the condition that finished first, and say which', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'plain');
    writeMechlensRun(root, {
      id: 'late',
      name: 'model-b',
      experiment: null,
      examples: examples(5),
      extra: { finished_at: '2026-02-01T00:00:00Z' },
    });
    writeMechlensRun(root, {
      id: 'early',
      name: 'model-a2',
      experiment: null,
      examples: examples(5),
      extra: { finished_at: '2026-01-01T00:00:00Z' },
    });
    await harness.service.index([root]);
    const conditions = await call<{ name: string; role: string }[]>('conditions:list', {
      experimentId: 'project:test-project',
    });
    expect(conditions.find((c) => c.role === 'reference')?.name).toBe('model-a2');
    const { report } = await harness.service.compare.run({
      experimentId: 'project:test-project',
      resamples: 200,
    });
    expect(report.experiment.reference).toBe('model-a2');
  });
});
