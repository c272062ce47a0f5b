import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/jobs';
import { finishedJobToast } from '../../renderer/jobToast';
import { examples, writeFile, writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** Runs one index pass over `paths`; the job as its finished event carried it, and as stored. */
async function pass(paths: string[]): Promise<{ heard: Job; stored: Job }> {
  const { service } = harness!;
  let heard: Job | null = null;
  const off = service.events.on('job:finished', ({ job }) => {
    heard = job;
  });
  const jobId = service.startIndex(paths, 'Indexing');
  await service.jobs.wait(jobId);
  off();
  // Read back from the jobs table, as a client listing jobs later sees it.
  const stored = service.jobs.list().find((j) => j.id === jobId)!;
  return { heard: heard!, stored };
}

describe('an index job ends with how many of its sources failed', () => {
  it('a pass that imports some sources and fails one says "done" with the count', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'exp1');
    writeMechlensRun(root, { id: 'ok-1', examples: examples(3) });
    writeFile(root, '.mechlens/runs/broken.json', '{"project": "x", "examples": [');

    const { heard, stored } = await pass([root]);
    for (const job of [heard, stored]) {
      expect(job.state).toBe('finished');
      expect(job.progress).toMatchObject({ phase: 'done', done: 2, total: 2, failed: 1 });
      expect(finishedJobToast(job)).toEqual({
        kind: 'info',
        text: 'Indexing exp1: done — 1 source failed (see Problems)',
      });
    }
  });

  it('a path that cannot be read at all says nothing was indexed', async () => {
    harness = makeService();
    const { heard } = await pass([path.join(harness.dir, 'gone')]);
    expect(heard.state).toBe('finished');
    expect(heard.progress).toMatchObject({ phase: 'done', total: 0, failed: 1 });
    expect(finishedJobToast(heard)).toEqual({
      kind: 'error',
      text: 'Indexing gone: nothing indexed — 1 source failed (see Problems)',
    });
  });

  it('a clean pass says done and nothing more', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'clean');
    writeMechlensRun(root, { id: 'ok-1', examples: examples(3) });
    const { stored } = await pass([root]);
    expect(stored.progress).toMatchObject({ phase: 'done', failed: 0 });
    expect(finishedJobToast(stored)).toEqual({ kind: 'info', text: 'Indexing clean: done' });
  });
});
