import { beforeEach, describe, expect, it, vi } from 'vitest';

type Handler = (payload: unknown) => void;
const handlers = new Map<string, Handler>();
const calls: { name: string; input: unknown }[] = [];
let reports: unknown[] = [];

function request(name: string, input: unknown) {
  calls.push({ name, input });
  if (name === 'compare:report') return Promise.resolve(reports.shift() ?? null);
  if (name === 'compare:start') return Promise.resolve({ jobId: `job-${calls.length}` });
  if (name === 'jobs:list') return Promise.resolve([]);
  if (name === 'experiments:list') return Promise.resolve([]);
  if (name === 'library:summary' || name === 'runs:list' || name === 'library:problems')
    return Promise.resolve(name === 'library:summary' ? {} : []);
  return Promise.resolve([]);
}

vi.mock('../../../renderer/api', () => ({
  HELD: Symbol('held'),
  request,
  requestUnlessHeld: request,
  subscribe: (event: string, handler: Handler) => {
    handlers.set(event, handler);
    return () => handlers.delete(event);
  },
}));

const { ensureComparison, startSync } = await import('../../../renderer/sync');
const { useApp } = await import('../../../renderer/store');

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const starts = () => calls.filter((c) => c.name === 'compare:start').length;

describe('renderer sync: a comparison asked for is always answered', () => {
  beforeEach(() => {
    calls.length = 0;
    reports = [];
    handlers.clear();
  });

  it('asks again when the comparison that finished is for runs that indexing has since replaced', async () => {
    const stop = startSync();
    await settle();
    useApp.getState().selectExperiment('exp-1');
    await ensureComparison();
    expect(starts()).toBe(1);

    // The cache has no report for the current runs: the finished comparison saw fewer of them.
    reports = [null];
    handlers.get('compare:ready')!({ experimentId: 'exp-1', key: 'old' });
    await settle();
    await settle();
    expect(starts()).toBe(2);

    // The second comparison is for the current runs: it is shown and nothing more is asked.
    const report = { key: 'new', createdAt: 'now', report: { comparisons: [] } };
    reports = [report];
    handlers.get('compare:ready')!({ experimentId: 'exp-1', key: 'new' });
    await settle();
    await settle();
    expect(useApp.getState().report).toEqual(report);
    expect(starts()).toBe(2);
    stop();
  });
});
