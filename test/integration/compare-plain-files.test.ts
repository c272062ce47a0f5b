import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Io } from '../../electron/cli/commands';
import { compareCommand } from '../../electron/cli/compare';
import { listExperiments } from '../../electron/core/experiments';
import type { Report } from '../../shared/compare/types';
import { writeGenericCsv, writeGenericJsonl } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function report(): Promise<Report> {
  const lines: string[] = [];
  const io: Io = { out: (t) => lines.push(t), err: (t) => lines.push(t) };
  const [experiment] = listExperiments(harness!.service.db);
  const flags = { db: harness!.service.db.name, experiment: experiment!.id, format: 'json' };
  expect(await compareCommand([], flags, io)).toBe(0);
  return JSON.parse(lines.join('\n')) as Report;
}

/** Twenty examples; `passing` says which pass in this run. */
function rows(passing: (i: number) => boolean) {
  return Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    input: `Q${i + 1}`,
    output: passing(i) ? 'right' : 'wrong',
    correct: passing(i),
    grade: passing(i) ? 'pass' : 'fail',
  }));
}

function csv(list: ReturnType<typeof rows>): string {
  const lines = list.map((r) => [r.id, r.input, r.output, r.correct ? 'TRUE' : 'FALSE', r.grade]);
  return ['id,input,output,correct,grade', ...lines.map((cells) => cells.join(','))].join('\n');
}

describe('plain results files that declare no metrics', () => {
  it('get a paired difference with an interval for each pass/fail field', async () => {
    harness = makeService();
    const dir = path.join(harness.dir, 'evals');
    // The reference passes the first 10, the candidate the first 14: +0.2, four improved.
    writeGenericJsonl(
      dir,
      'base.jsonl',
      rows((i) => i < 10),
    );
    writeGenericJsonl(
      dir,
      'steered.jsonl',
      rows((i) => i < 14),
    );
    await harness.service.index([dir]);
    const [comparison] = (await report()).comparisons;
    const metrics = Object.fromEntries(comparison!.metrics.map((m) => [m.name, m]));
    expect(Object.keys(metrics).sort()).toEqual(['correct', 'grade']);
    for (const name of ['correct', 'grade']) {
      expect(metrics[name]).toMatchObject({
        example_field: name,
        direction: 'higher_is_better',
        not_comparable: [],
      });
      expect(metrics[name]!.description).toMatch(/not declared in the file/);
      const paired = metrics[name]!.paired!;
      expect(paired.n).toBe(20);
      expect(paired.difference).toBeCloseTo(
        comparison!.reference.condition === 'base' ? 0.2 : -0.2,
      );
      expect(paired.ci95![0]).toBeLessThan(paired.difference!);
      expect(paired.ci95![1]).toBeGreaterThan(paired.difference!);
    }
  });

  it('do the same from CSV, whose cells are typed as a spreadsheet means them', async () => {
    harness = makeService();
    const dir = path.join(harness.dir, 'evals');
    writeGenericCsv(dir, 'base.csv', csv(rows((i) => i < 10)));
    writeGenericCsv(dir, 'steered.csv', csv(rows((i) => i < 14)));
    await harness.service.index([dir]);
    const [comparison] = (await report()).comparisons;
    expect(comparison!.metrics.map((m) => [m.name, m.paired?.n])).toEqual([
      ['correct', 20],
      ['grade', 20],
    ]);
  });
});
