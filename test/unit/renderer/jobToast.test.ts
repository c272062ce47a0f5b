import { describe, expect, it } from 'vitest';
import type { Job, JobProgress } from '../../../shared/jobs';
import { finishedJobToast } from '../../../renderer/jobToast';

function job(over: Partial<Job>, progress: Partial<JobProgress> | null = null): Job {
  return {
    id: 'j1',
    kind: 'index',
    title: 'Indexing exp1',
    state: 'finished',
    createdAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    progress: progress && { phase: 'done', done: 0, total: null, ...progress },
    error: null,
    ...over,
  };
}

describe('the toast of a job that ended', () => {
  it('counts the failed sources of an index pass, in the plural past one', () => {
    expect(finishedJobToast(job({}, { done: 5, total: 5, failed: 3 }))?.text).toBe(
      'Indexing exp1: done — 3 sources failed (see Problems)',
    );
  });

  it('says "done" alone when nothing failed, or when the progress predates the count', () => {
    expect(finishedJobToast(job({}, { done: 5, total: 5, failed: 0 }))?.text).toBe(
      'Indexing exp1: done',
    );
    expect(finishedJobToast(job({}, { done: 5, total: 5 }))?.text).toBe('Indexing exp1: done');
    expect(finishedJobToast(job({}))?.text).toBe('Indexing exp1: done');
  });

  it('a failed job gives its error; a cancelled one and a finished comparison say nothing', () => {
    expect(finishedJobToast(job({ state: 'failed', error: 'disk full' }))).toEqual({
      kind: 'error',
      text: 'Indexing exp1 failed: disk full',
    });
    expect(finishedJobToast(job({ state: 'cancelled' }))).toBeNull();
    expect(finishedJobToast(job({ kind: 'compare', title: 'Comparing' }))).toBeNull();
  });
});
