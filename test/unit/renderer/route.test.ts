import { describe, expect, it, vi } from 'vitest';
import { startExperiment } from '../../../shared/start-experiment';

vi.mock('../../../renderer/api', () => ({
  request: () => Promise.resolve([]),
  subscribe: () => () => undefined,
}));

const { formatRoute } = await import('../../../renderer/route');
const { parseRoute } = await import('../../../renderer/readRoute');

describe('the address of a screen', () => {
  it('round-trips view, experiment, pair, filters, sort and example', () => {
    const route = {
      view: 'examples' as const,
      experimentId: 'exp steering/1',
      runPair: null,
      pair: 2,
      filter: { search: 'Napol & co', outputChanged: true, criterion: 'score' },
      sort: { key: 'delta' as const, criterion: 'score', descending: false },
      exampleId: 'syc-0035',
      findingId: null,
    };
    expect(parseRoute(formatRoute(route))).toEqual(route);
    const pairOfRuns = {
      ...route,
      view: 'comparison' as const,
      experimentId: null,
      runPair: { baseline: 'run-a', candidate: 'run-b' },
      filter: {},
      sort: { key: 'example_id' as const, descending: false },
      exampleId: null,
    };
    expect(parseRoute(formatRoute(pairOfRuns))).toEqual(pairOfRuns);
    const finding = { ...pairOfRuns, view: 'findings' as const, findingId: 'f-1', pair: 0 };
    expect(parseRoute(formatRoute(finding))).toEqual(finding);
  });

  it('reads a hostile or stale address as the nearest sane screen', () => {
    const route = parseRoute('#/nowhere?pair=-3&filter=%7Bnot-json&sort=drop&exp=e1');
    expect(route).toMatchObject({
      view: 'library',
      experimentId: 'e1',
      pair: 0,
      filter: {},
      sort: { key: 'example_id', descending: false },
    });
    expect(parseRoute('#/examples?filter=%7B%22changeClass%22%3A%22bogus%22%7D').filter).toEqual(
      {},
    );
    expect(parseRoute('').view).toBe('library');
  });
});

describe('where the app opens', () => {
  it('on the latest experiment that has examples, never on an empty one while another has some', () => {
    expect(
      startExperiment([
        { id: 'aaa-empty', examples: 0, lastRunAt: '2026-12-01T00:00:00Z' },
        { id: 'old', examples: 10, lastRunAt: '2026-01-01T00:00:00Z' },
        { id: 'new', examples: 5, lastRunAt: '2026-06-01T00:00:00Z' },
      ])?.id,
    ).toBe('new');
    expect(startExperiment([{ id: 'metrics-only', examples: 0, lastRunAt: null }])?.id).toBe(
      'metrics-only',
    );
    expect(startExperiment([])).toBeNull();
  });
});
