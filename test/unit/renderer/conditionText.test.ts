import { describe, expect, it } from 'vitest';
import type { ConditionRow } from '../../../renderer/store/workbench';
import {
  expectationsText,
  runOverride,
  runStatusText,
} from '../../../renderer/features/conditions/conditionText';
import { referenceGuessed } from '../../../renderer/features/conditions/roles';

type Run = ConditionRow['runs'][number];

function run(patch: Partial<Run> = {}): Run {
  return {
    run_id: 'r1',
    format: 'jsonl',
    project: 'p',
    experiment_id: 'e',
    condition: 'steered',
    role: null,
    series: null,
    level: null,
    examples: 3,
    state: 'completed',
    superseded: false,
    missing: false,
    path: null,
    started_at: null,
    finished_at: null,
    warnings: [],
    ...patch,
  };
}

describe('a condition card in words', () => {
  it('lists the expected effects in plain words', () => {
    expect(expectationsText({ refusal: 'decrease', length: 'no_effect' })).toBe(
      'refusal: decrease, length: no effect',
    );
    expect(expectationsText({})).toBe('');
  });

  it('says superseded before missing, then how the run ended', () => {
    expect(runStatusText(run({ superseded: true, missing: true }))).toBe('superseded');
    expect(runStatusText(run({ missing: true }))).toBe('missing');
    expect(runStatusText(run())).toBe('complete');
    expect(runStatusText(run({ state: 'interrupted' }))).toBe('interrupted');
  });

  it("shows a run's own role only where it differs from its condition's", () => {
    expect(runOverride(run({ role: 'control' }), 'intervention')).toBe('control');
    expect(runOverride(run({ role: 'intervention' }), 'intervention')).toBe('');
    expect(runOverride(run({ role: null }), 'intervention')).toBe('');
  });

  it('calls a reference guessed only when Pairwise picked it', () => {
    expect(referenceGuessed('name')).toBe(true);
    expect(referenceGuessed('earliest')).toBe(true);
    expect(referenceGuessed('declared')).toBe(false);
    expect(referenceGuessed('chosen')).toBe(false);
    expect(referenceGuessed(null)).toBe(false);
    expect(referenceGuessed(undefined)).toBe(false);
  });
});
