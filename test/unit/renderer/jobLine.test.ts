import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../shared/jobs';
import { jobLine } from '../../../renderer/components/jobLine';

const line = (title: string, progress: JobProgress | null) => jobLine({ title, progress });

describe("the status bar's line for a running job", () => {
  it('says a phase that is the title once, then its count', () => {
    expect(line('Archiving texts', { phase: 'Archiving texts', done: 242, total: 782 })).toBe(
      'Archiving texts 242 / 782',
    );
    expect(line('Preparing search', { phase: 'Preparing search', done: 3, total: 10 })).toBe(
      'Preparing search 3 / 10',
    );
    expect(
      line('Preparing runs for comparison', {
        phase: 'Preparing runs for comparison',
        done: 1,
        total: 2,
      }),
    ).toBe('Preparing runs for comparison 1 / 2');
  });

  it('leaves out a phase the title opens with, keeping the count and the share of bytes', () => {
    const progress = { phase: 'indexing', done: 1, total: 2, bytes: 5e6, totalBytes: 10e6 };
    expect(line('Indexing exp1', progress)).toBe('Indexing exp1 — 1 / 2 · 50 % of 10 MB');
    expect(line('Indexingfoo', progress)).toBe('Indexingfoo — indexing 1 / 2 · 50 % of 10 MB');
  });

  it('names any other phase after a dash', () => {
    expect(line('Indexing exp1', { phase: 'done', done: 2, total: 2 })).toBe(
      'Indexing exp1 — done 2 / 2',
    );
    expect(line('Comparing exp1', { phase: 'loading runs', done: 0, total: 2 })).toBe(
      'Comparing exp1 — loading runs 0 / 2',
    );
    expect(line('Syncing with MechLens', { phase: 'sending', done: 4, total: null })).toBe(
      'Syncing with MechLens — sending 4',
    );
  });

  it('counts nothing in a phase that has counted nothing and has no total', () => {
    expect(line('Indexing exp1', { phase: 'scanning', done: 0, total: null })).toBe(
      'Indexing exp1 — scanning',
    );
    expect(line('Comparing exp1', { phase: 'saving', done: 0, total: null })).toBe(
      'Comparing exp1 — saving',
    );
    expect(line('Preparing search', { phase: 'Preparing search', done: 0, total: null })).toBe(
      'Preparing search',
    );
  });

  it('is the title alone before the first progress', () => {
    expect(line('Archiving texts', null)).toBe('Archiving texts');
  });
});
