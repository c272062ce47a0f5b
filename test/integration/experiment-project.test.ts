import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listExperiments } from '../../electron/core/experiments';
import { writeLmEval } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/**
 * One lm-eval task evaluated into two output folders is one experiment; its project (the
 * output folder) must not depend on which file an index worker happened to store first.
 */
async function projectAfterIndexing(order: ('out-a' | 'out-b')[]): Promise<string[]> {
  harness = makeService();
  const root = harness.dir;
  writeLmEval(path.join(root, 'out-a'), { model: 'org/model-a' });
  writeLmEval(path.join(root, 'out-b'), { model: 'org/model-b' });
  for (const folder of order) await harness.service.index([path.join(root, folder)]);
  const projects = listExperiments(harness.service.db).map((e) => e.project);
  await harness.close();
  harness = null;
  return projects;
}

describe("an experiment's project", () => {
  it('is the same whichever of its sources is indexed first', async () => {
    const forward = await projectAfterIndexing(['out-a', 'out-b']);
    const backward = await projectAfterIndexing(['out-b', 'out-a']);
    expect(forward).toHaveLength(1);
    expect(backward).toEqual(forward);
  });
});
