import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

const runs = (h: Harness) => (h.service.handlers['library:summary']({}) as { runs: number }).runs;

describe('removing a watched folder', () => {
  it('keeps the runs another watched folder still provides, and says so before', async () => {
    harness = makeService();
    const outer = path.join(harness.dir, 'lib');
    const inner = path.join(outer, 'inner');
    writeMechlensRun(outer, { id: 'run-outer', name: 'reference' });
    writeMechlensRun(inner, { id: 'run-inner', name: 'steer' });
    for (const folder of [inner, outer]) {
      const { jobId } = harness.service.handlers['library:addFolder']({
        path: folder,
        watch: false,
      }) as { jobId: string };
      await harness.service.jobs.wait(jobId);
    }
    expect(runs(harness)).toBe(2);

    expect(harness.service.handlers['library:folderRemoval']({ path: inner })).toEqual({
      path: inner,
      runs: 0,
      sources: 0,
      kept: 1,
      keptBy: [outer],
    });
    expect(await harness.service.handlers['library:removeFolder']({ path: inner })).toEqual({
      removed: true,
      runs: 0,
      kept: 1,
    });
    expect(runs(harness)).toBe(2);

    expect(harness.service.handlers['library:folderRemoval']({ path: outer })).toMatchObject({
      runs: 2,
      kept: 0,
    });
    await harness.service.handlers['library:removeFolder']({ path: outer });
    expect(runs(harness)).toBe(0);
  });
});
