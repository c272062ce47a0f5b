import { describe, expect, it } from 'vitest';
import { buildExperimentReport, compareRuns } from '../../../shared/compare/report';
import type { CompareExample, CompareRun } from '../../../shared/compare/types';
import {
  EXP1_EXPERIMENT,
  exp1Runs,
  makeExample,
  makeExperiment,
  makeRun,
} from '../../fixtures/compare';

const metricDefinitions = {
  accuracy: { example_field: 'correct', direction: 'higher_is_better' as const },
};

/** Ten examples; `errored` ids gave no answer and were scored 0 by the producer. */
function run(runId: string, correct: (i: number) => boolean, errored: number[] = []): CompareRun {
  const examples: CompareExample[] = Array.from({ length: 10 }, (_, i) => {
    const id = `q${i}`;
    return errored.includes(i)
      ? makeExample(id, { correct: false, tokens: 0 }, { output: '', error: 'rate limited' })
      : makeExample(id, { correct: correct(i), tokens: 10 + i });
  });
  return makeRun({
    runId,
    conditionName: runId,
    metricDefinitions,
    metrics: { accuracy: 0.5 },
    examples,
  });
}

const experiment = makeExperiment();

describe('errored examples are not data', () => {
  it('are not comparable on any criterion, out of the paired statistics, and counted', () => {
    const reference = run('ref', (i) => i % 2 === 0, [1, 2, 3]);
    const candidate = run('cand', () => true, [4, 5]);
    const c = compareRuns(experiment, reference, candidate, { resamples: 500 });
    expect(c.coverage).toMatchObject({
      paired: 10,
      errored_reference: ['q1', 'q2', 'q3'],
      errored_candidate: ['q4', 'q5'],
    });
    for (const criterion of c.criteria) expect(criterion.not_comparable, criterion.field).toBe(5);
    const correct = c.criteria.find((k) => k.field === 'correct')!;
    // q7, q9 went from wrong to right; q0, q6, q8 stayed right.
    expect(correct).toMatchObject({ improved: 2, regressed: 0, unchanged: 3 });
    const accuracy = c.metrics.find((m) => m.name === 'accuracy')!;
    expect(accuracy.paired).toMatchObject({ n: 5, difference: 0.4 });
    expect(c.limitations).toContain(
      '3 examples errored on the reference run and 2 on the candidate run (q1, q2, q3, q4, q5); ' +
        'they are left out of every criterion and paired statistic, so 5 of the 10 paired ' +
        'examples are compared.',
    );
  });

  it('a run where every example errored says so instead of reading as no change', () => {
    const all = Array.from({ length: 10 }, (_, i) => i);
    const reference = run('ref', () => false, all);
    const candidate = run('cand', () => false, all);
    const c = compareRuns(experiment, reference, candidate, { resamples: 500 });
    const accuracy = c.metrics.find((m) => m.name === 'accuracy')!;
    expect(accuracy.paired).toMatchObject({ n: 0, difference: null, ci95: null, p_value: null });
    expect(c.criteria.every((k) => k.not_comparable === 10)).toBe(true);
    expect(c.limitations).toEqual([
      'Every paired example errored on the reference run (ref) and the candidate run (cand): ' +
        'nothing to compare; the criteria and paired differences are empty, not "no change".',
    ]);
    const oneSide = compareRuns(
      experiment,
      run('ref', () => true),
      candidate,
      {
        resamples: 500,
      },
    );
    expect(oneSide.limitations.join('\n')).toMatch(
      /^Every paired example errored on the candidate run \(cand\): nothing to compare/m,
    );
  });

  it('leave a report of runs without errors exactly as it was', () => {
    const report = buildExperimentReport(EXP1_EXPERIMENT, exp1Runs(), { resamples: 500 });
    const text = JSON.stringify(report);
    expect(text).not.toContain('errored');
    for (const c of report.comparisons) {
      expect(Object.keys(c.coverage)).toEqual([
        'paired',
        'only_reference',
        'only_candidate',
        'input_mismatch',
      ]);
    }
  });
});
