import { describe, expect, it } from 'vitest';
import type { RunRow } from '../../../renderer/store/library';
import {
  finishedLabel,
  firstCards,
  groupRuns,
  matchesSearch,
  treeRows,
  runState,
  shortRunId,
  shownRole,
} from '../../../renderer/features/library/libraryTree';

function run(patch: Partial<RunRow> = {}): RunRow {
  return {
    run_id: 'r1',
    format: 'jsonl',
    project: 'steering',
    experiment_id: 'exp-a',
    condition: 'baseline',
    role: null,
    series: null,
    level: null,
    examples: 10,
    state: 'completed',
    superseded: false,
    missing: false,
    path: '/data/steering/r1.jsonl',
    started_at: null,
    finished_at: null,
    warnings: [],
    ...patch,
  };
}

describe('the library tree', () => {
  it('groups runs by project, experiment and condition, in the order they came', () => {
    const tree = groupRuns([
      run({ run_id: 'a1', experiment_id: 'exp-a', condition: 'baseline' }),
      run({ run_id: 'b1', experiment_id: 'exp-b', condition: 'steered' }),
      run({ run_id: 'a2', experiment_id: 'exp-a', condition: 'steered' }),
      run({ run_id: 'a3', experiment_id: 'exp-a', condition: 'baseline' }),
      run({ run_id: 'o1', project: 'other', experiment_id: 'exp-a' }),
    ]);
    expect([...tree.keys()]).toEqual(['steering', 'other']);
    const [a, b] = tree.get('steering')!;
    expect(a!.id).toBe('exp-a');
    expect(a!.runs.map((r) => r.run_id)).toEqual(['a1', 'a2', 'a3']);
    expect([...a!.conditions.entries()].map(([c, rs]) => [c, rs.map((r) => r.run_id)])).toEqual([
      ['baseline', ['a1', 'a3']],
      ['steered', ['a2']],
    ]);
    expect(b!.runs.map((r) => r.run_id)).toEqual(['b1']);
    // The same experiment id in another project is another experiment.
    expect(tree.get('other')!.map((e) => e.runs.length)).toEqual([1]);
  });

  it('renders the first cards whose rows fit, in order, at least one', () => {
    const tree = groupRuns([
      run({ run_id: 'a1', experiment_id: 'exp-a' }),
      run({ run_id: 'a2', experiment_id: 'exp-a' }),
      run({ run_id: 'b1', experiment_id: 'exp-b' }),
      run({ run_id: 'c1', experiment_id: 'exp-c' }),
      run({ run_id: 'o1', project: 'other', experiment_id: 'exp-o' }),
    ]);
    // Three rows for a card's head, one per run.
    expect(treeRows(tree)).toBe(4 * 3 + 5);
    const ids = (rows: number) =>
      firstCards(tree, rows).map(([project, groups]) => [project, groups.map((g) => g.id)]);
    expect(ids(1)).toEqual([['steering', ['exp-a']]]);
    expect(ids(9)).toEqual([['steering', ['exp-a', 'exp-b']]]);
    expect(ids(13)).toEqual([['steering', ['exp-a', 'exp-b', 'exp-c']]]);
    expect(ids(17)).toEqual([
      ['steering', ['exp-a', 'exp-b', 'exp-c']],
      ['other', ['exp-o']],
    ]);
    expect(ids(99)).toEqual(ids(17));
    expect(ids(0)).toEqual([]);
  });

  it('searches every name a user might remember, case aside, the path included', () => {
    const r = run({ condition: 'Steered-4521', format: 'inspect', path: '/logs/eval.json' });
    expect(matchesSearch(r, '')).toBe(true);
    expect(matchesSearch(r, 'steered-45')).toBe(true);
    expect(matchesSearch(r, 'INSPECT')).toBe(true);
    expect(matchesSearch(r, 'logs/eval')).toBe(true);
    expect(matchesSearch(r, 'promptfoo')).toBe(false);
    expect(matchesSearch(run({ path: null }), 'null')).toBe(false);
  });
});

describe('how a run reads in the library', () => {
  it('says missing before superseded, and incomplete however a run stopped', () => {
    expect(runState(run({ missing: true, superseded: true }))).toBe('missing');
    expect(runState(run({ superseded: true }))).toBe('superseded');
    expect(runState(run())).toBe('complete');
    expect(runState(run({ state: 'interrupted' }))).toBe('incomplete');
    expect(runState(run({ state: 'running' }))).toBe('incomplete');
    expect(runState(run({ state: 'failed' }))).toBe('failed');
  });

  it("shows the experiment's one reference, never a second one a run claims", () => {
    expect(shownRole('baseline', run({ role: 'intervention' }), 'baseline')).toBe('reference');
    expect(shownRole('steered', run({ role: 'reference' }), 'baseline')).toBe('unknown');
    expect(shownRole('steered', run({ role: 'intervention' }), 'baseline')).toBe('intervention');
    expect(shownRole('steered', run({ role: null }), null)).toBe('unknown');
  });

  it('shortens long run ids and times', () => {
    expect(shortRunId('0123456789abcd')).toBe('0123456789abcd');
    expect(shortRunId('0123456789abcdef')).toBe('0123456789abcd…');
    expect(finishedLabel('2026-09-14T09:00:00.123Z')).toBe('2026-09-14 09:00:00');
    expect(finishedLabel('2026-09-14T09:00:00Z')).toBe('2026-09-14 09:00:00');
    expect(finishedLabel('2026-09-14T09:00:00+02:00')).toBe('2026-09-14 09:00:00+02:00');
    expect(finishedLabel(null)).toBe('—');
  });
});
