import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listRuns } from '../../electron/core/library';
import { lightevalSamples, writeLightevalDetails } from '../fixtures/lighteval';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe('lighteval details in a library', () => {
  it('index in the workers like any run and compare model against model', async () => {
    harness = makeService();
    const out = path.join(harness.dir, 'evals');
    const task = 'lighteval|gsm8k|0';
    await writeLightevalDetails(out, {
      model: 'org/base',
      task,
      layout: 'v2',
      samples: lightevalSamples(30),
    });
    await writeLightevalDetails(out, {
      model: 'org/tuned',
      task,
      layout: 'v2',
      date: '2025-06-02T10-00-00.000001',
      samples: lightevalSamples(28, 1, true, 2),
    });
    const stats = await harness.service.index([out]);
    expect(stats.problems).toEqual([]);
    const runs = listRuns(harness.service.db);
    expect(runs.map((r) => [r.format, r.experiment_id, r.condition, r.examples])).toEqual([
      ['lighteval', `lighteval:${task}`, 'org/base', 30],
      ['lighteval', `lighteval:${task}`, 'org/tuned', 28],
    ]);
    const { report } = await harness.service.compare.run({
      experimentId: `lighteval:${task}`,
      reference: 'org/base',
      resamples: 200,
    });
    const [comparison] = report.comparisons;
    expect(comparison!.coverage.paired).toBe(28);
    expect(comparison!.coverage.only_reference).toEqual(['0', '1']);
    expect(comparison!.metrics.find((m) => m.name === 'em')!.paired!.n).toBe(28);
  });
});
