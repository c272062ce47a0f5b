import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listExperiments } from '../../electron/core/experiments';
import type { Report } from '../../shared/compare/types';
import type { ReportView } from '../../shared/report-view';
import { evalSample, jsonLog } from '../fixtures/inspect';
import { callOk, makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** The report's lists of example ids, wherever they sit. */
const ID_LISTS = new Set([
  'only_reference',
  'only_candidate',
  'input_mismatch',
  'errored_reference',
  'errored_candidate',
  'behavior_changed',
  'output_changed',
]);

/** The full report with every id list replaced by its length, found by walking it. */
function counted(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    if (ID_LISTS.has(key)) return value.length;
    return value.map((v) => counted(v));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, counted(v, k)]));
  }
  return value;
}

/** Every id list of the report that has at least one id, by its path. */
function nonEmptyLists(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) {
    const leaf = at.slice(at.lastIndexOf('.') + 1);
    if (ID_LISTS.has(leaf)) return value.length > 0 ? [at] : [];
    return value.flatMap((v, i) => nonEmptyLists(v, `${at}[${i}]`));
  }
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => nonEmptyLists(v, `${at}.${k}`));
  return [];
}

/**
 * Two Inspect logs of one task that differ in every way the report lists ids for: samples
 * only on one side, inputs that differ, errored samples, changed outputs and changed scores.
 */
function writeLogs(dir: string): void {
  const write = (name: string, model: string, ids: number[], side: 'a' | 'b') => {
    const samples = ids.map((id) =>
      evalSample({
        id,
        input: side === 'b' && id % 7 === 0 ? `question ${id}, reworded` : `question ${id}`,
        output: side === 'b' && id % 3 === 0 ? `another answer to ${id}` : `answer to ${id}`,
        scores: { match: side === 'b' && id % 5 === 0 ? 'I' : 'C' },
        ...(id % 11 === (side === 'a' ? 1 : 2) ? { error: 'RateLimitError: 429' } : {}),
      }),
    );
    const log = jsonLog({ model, samples, evalId: `eval${name.padEnd(18, 'X')}` });
    fs.writeFileSync(
      path.join(dir, `2025-05-12T20-28-26-04-00_popularity_${name}.json`),
      JSON.stringify(log),
    );
  };
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);
  write('a', 'openai/gpt-4o-mini', range(1, 60), 'a');
  write('b', 'openai/gpt-4o', range(6, 66), 'b');
}

describe('the report the UI receives', () => {
  it('counts every id list of the stored report, and carries everything else unchanged', async () => {
    harness = makeService();
    const dir = path.join(harness.dir, 'logs');
    fs.mkdirSync(dir);
    writeLogs(dir);
    await harness.service.index([dir]);
    const [experiment] = listExperiments(harness.service.db);
    const settings = { experimentId: experiment!.id, resamples: 200 };
    const full: Report = (await harness.service.compare.run(settings)).report;
    const lists = nonEmptyLists(full);
    expect(new Set(lists.map((at) => at.slice(at.lastIndexOf('.') + 1)))).toEqual(ID_LISTS);
    expect(lists.some((at) => at.endsWith('.paired.input_mismatch'))).toBe(true);

    const answer = await callOk<{ report: ReportView }>(
      harness.service,
      'compare:report',
      settings,
    );
    expect(answer.report).toEqual(counted(full));
    const [c] = answer.report.comparisons;
    expect(c!.coverage.only_reference).toBe(full.comparisons[0]!.coverage.only_reference.length);
    expect(c!.examples.output_changed).toBe(full.comparisons[0]!.examples.output_changed.length);
  });
});
