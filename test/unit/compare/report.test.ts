import { describe, expect, it } from 'vitest';
import {
  buildExperimentReport,
  chooseReference,
  compareRuns,
  planPairs,
} from '../../../shared/compare/report';
import type { ImportedRun } from '../../../shared/model';
import { toCompareRun, type CompareRun } from '../../../shared/compare/types';
import { makeExample, makeExperiment, makeRun } from '../../fixtures/compare';

const run = (conditionName: string, overrides: Partial<CompareRun> = {}) =>
  makeRun({ runId: `run-${conditionName}`, conditionName, ...overrides });

describe('chooseReference', () => {
  it.each([
    ['the role reference first', [run('zeta', { role: 'reference' }), run('baseline')], 'zeta'],
    ['then a name starting with baseline', [run('a-control'), run('Baseline-2')], 'Baseline-2'],
    ['then one starting with control', [run('my-baseline'), run('control')], 'control'],
    ['then one containing either', [run('b'), run('the-control-run')], 'the-control-run'],
    ['else the first by name', [run('b'), run('a')], 'a'],
  ])('%s', (_name, runs, expected) => {
    expect(chooseReference(runs).conditionName).toBe(expected);
  });

  it('honours an explicit choice and refuses an unknown one', () => {
    expect(chooseReference([run('a'), run('b')], 'b').conditionName).toBe('b');
    expect(() => chooseReference([run('a')], 'nope')).toThrow(/nope/);
    expect(() => chooseReference([])).toThrow();
  });
});

describe('planPairs', () => {
  it('compares every condition with the reference, then declared compare_to pairs once', () => {
    const ref = run('reference', { role: 'reference' });
    const runs = [
      run('steer', { compareTo: ['random', 'reference', 'missing'] }),
      run('random', { compareTo: ['steer'] }),
      ref,
      run('other'),
    ];
    expect(
      planPairs(runs, ref).map((p) => [p.candidate.conditionName, p.reference.conditionName]),
    ).toEqual([
      ['other', 'reference'],
      ['random', 'reference'],
      ['steer', 'reference'],
      // random declares steer and sorts first; steer's mirror declaration is not repeated.
      ['random', 'steer'],
    ]);
  });
});

describe('compareRuns', () => {
  it('fills every field of the report shape, with nulls rather than omissions', () => {
    const experiment = makeExperiment({ deviations: ['Fewer prompts than planned'] });
    const comparison = compareRuns(
      experiment,
      run('reference', { examples: [makeExample('a', { ok: 1 })] }),
      run('candidate', { examples: [makeExample('b', { ok: 2 })], codeCommit: null }),
      { resamples: 100 },
    );
    expect(Object.keys(comparison)).toEqual([
      'reference',
      'candidate',
      'checks',
      'summary',
      'evaluated_differs',
      'coverage',
      'examples',
      'criteria',
      'metrics',
      'limitations',
    ]);
    expect(comparison.reference).toEqual({ condition: 'reference', run_id: 'run-reference' });
    expect(comparison.limitations).toEqual([
      'Declared deviation: Fewer prompts than planned.',
      'code_commit is unknown: the reference run (reference) records "c0ffee" and the ' +
        'candidate run (candidate) records nothing, so the runs cannot be confirmed to match on it.',
      'examples.ids differs: 1 example only in the reference run (a) and 1 example only in the ' +
        'candidate run (b); the runs differ in what was evaluated.',
      'Coverage is partial: 0 examples paired, 1 only in the reference run and 1 only in the ' +
        'candidate run; unpaired examples are left out of the paired statistics.',
    ]);
    expect(JSON.stringify(comparison)).not.toContain('undefined');
  });

  it('lists a metric without an interval as a limitation', () => {
    const comparison = compareRuns(
      makeExperiment(),
      run('reference', { metrics: { len: 10 } }),
      run('candidate', { metrics: { len: 12 } }),
    );
    expect(comparison.limitations).toContain(
      'len has no confidence interval: the two runs do not name the same example field for it, ' +
        'so only the difference of the reported values (+2) is shown.',
    );
  });
});

describe('buildExperimentReport', () => {
  const definitions = { rate: { example_field: 'hit', direction: 'higher_is_better' as const } };
  const examples = (hits: number[]) =>
    hits.map((hit, i) => makeExample(`e${i}`, { hit }, { output: hit ? 'yes' : 'no' }));
  const runs = [
    run('baseline', {
      metrics: { rate: 0.2 },
      metricDefinitions: definitions,
      examples: examples([0, 0, 1, 0, 0]),
    }),
    run('low', {
      series: 'dose',
      level: 1,
      metrics: { rate: 0.4 },
      metricDefinitions: definitions,
      examples: examples([1, 0, 1, 0, 0]),
    }),
    run('high', {
      series: 'dose',
      level: 2,
      metrics: { rate: 1 },
      metricDefinitions: definitions,
      examples: examples([1, 1, 1, 1, 1]),
    }),
  ];

  it('adjusts p-values with Holm across every comparison and metric', () => {
    const report = buildExperimentReport(makeExperiment(), runs, { resamples: 500 });
    expect(report.checker_version).toBe('1');
    expect(report.experiment.reference).toBe('baseline');
    const paired = report.comparisons.map((c) => c.metrics[0]!.paired!);
    const [high, low] = paired as [(typeof paired)[0], (typeof paired)[0]];
    const sorted = [...paired].sort((a, b) => a.p_value! - b.p_value!);
    expect(sorted[0]!.p_holm).toBeCloseTo(Math.min(1, 2 * sorted[0]!.p_value!), 12);
    expect(sorted[1]!.p_holm).toBeCloseTo(
      Math.max(sorted[0]!.p_holm!, Math.min(1, sorted[1]!.p_value!)),
      12,
    );
    expect(high.p_value).toBeLessThan(low.p_value!);
  });

  it('builds series points ordered by level, without the reference', () => {
    const report = buildExperimentReport(makeExperiment(), runs, { resamples: 500 });
    expect(report.series).toHaveLength(1);
    const [curve] = report.series;
    expect(curve!.points.map((p) => [p.condition, p.level, p.value, p.difference, p.n])).toEqual([
      ['low', 1, 0.4, expect.closeTo(0.2, 12), 5],
      ['high', 2, 1, expect.closeTo(0.8, 12), 5],
    ]);
    expect(curve!.trend).toEqual({ spearman_rho: 1, p_value: 1, method: 'exact permutation' });
  });

  it('measures the noise floor from two replicates of the reference', () => {
    const replicate = run('baseline', {
      runId: 'run-baseline-2',
      metrics: { rate: 0.4 },
      metricDefinitions: definitions,
      examples: examples([0, 1, 1, 0, 0]),
    });
    const report = buildExperimentReport(makeExperiment(), runs, {
      resamples: 500,
      replicates: { baseline: [replicate, runs[0]!] },
    });
    expect(report.noise_floor).toMatchObject({
      condition: 'baseline',
      runs: ['run-baseline', 'run-baseline-2'],
      metrics: [{ name: 'rate', difference: expect.closeTo(0.2, 12), n: 5 }],
    });
    expect(buildExperimentReport(makeExperiment(), runs).noise_floor).toBeNull();
  });

  it('refuses two runs of one condition', () => {
    expect(() => buildExperimentReport(makeExperiment(), [run('a'), run('a')])).toThrow(
      /Two runs of condition "a"/,
    );
  });

  it('is byte-identical for the same input', () => {
    const a = JSON.stringify(buildExperimentReport(makeExperiment(), runs, { resamples: 300 }));
    const b = JSON.stringify(
      buildExperimentReport(makeExperiment(), structuredClone(runs).reverse(), { resamples: 300 }),
    );
    expect(b).toBe(a);
  });
});

describe('toCompareRun', () => {
  it('takes what a comparison needs from an imported run', () => {
    const imported: ImportedRun = {
      runId: 'r1',
      format: 'mechlens',
      formatVersion: null,
      project: 'p',
      experiment: null,
      condition: {
        name: 'baseline',
        role: 'reference',
        series: null,
        level: null,
        expect: {},
        compareTo: [],
        identityHash: null,
      },
      settings: makeRun().settings,
      codeCommit: 'abc',
      startedAt: null,
      finishedAt: null,
      state: 'completed',
      seed: 1,
      metrics: { m: 1 },
      metricDefinitions: {},
      provenance: {},
      warnings: [],
      examples: [{ id: 'a', input: 'i', output: 'o', fields: { x: 1 }, target: 't', error: null }],
    };
    expect(toCompareRun(imported)).toEqual({
      ...makeRun({ runId: 'r1', conditionName: 'baseline', role: 'reference', codeCommit: 'abc' }),
      metrics: { m: 1 },
      examples: [{ id: 'a', input: 'i', output: 'o', fields: { x: 1 }, error: null }],
    });
  });
});
