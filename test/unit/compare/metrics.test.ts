import { describe, expect, it } from 'vitest';
import {
  metricComparisons,
  reportedDifference,
  sharedExampleField,
  verdictFor,
} from '../../../shared/compare/metrics';
import { pairExamples } from '../../../shared/compare/pairing';
import { bootstrapSeed } from '../../../shared/compare/rng';
import type { CompareRun } from '../../../shared/compare/types';
import { makeExample, makeRun } from '../../fixtures/compare';

const definitions: CompareRun['metricDefinitions'] = {
  acc: { example_field: 'correct', direction: 'higher_is_better' },
  score: { example_field: 'score' },
  len: { description: 'mean length, no example field' },
};

const reference = makeRun({
  runId: 'run-a',
  metrics: { acc: 0.5, score: 2, len: 10, label: 'x' },
  metricDefinitions: definitions,
  examples: [
    makeExample('1', { correct: false, score: 1 }),
    makeExample('2', { correct: true, score: 2 }),
    makeExample('3', { correct: false, score: null }),
    makeExample('4', { correct: 'I', score: 3 }, { input: 'changed later' }),
    makeExample('5', { correct: true, score: 'n/a' }),
  ],
});
const candidate = makeRun({
  runId: 'run-b',
  conditionName: 'candidate',
  expect: { acc: 'increase', score: 'no_effect' },
  metrics: { acc: 0.75, score: 2.5, len: 12 },
  metricDefinitions: definitions,
  examples: [
    makeExample('1', { correct: true, score: 2 }),
    makeExample('2', { correct: true, score: 2 }),
    makeExample('3', { correct: true, score: 4 }),
    makeExample('4', { correct: 'C', score: 3 }),
    makeExample('6', { correct: true, score: 5 }),
  ],
});

describe('reportedDifference', () => {
  it('subtracts run-level values, null when either is missing or not a number', () => {
    expect(reportedDifference(reference, candidate, 'acc')).toEqual({
      reference: 0.5,
      candidate: 0.75,
      difference: 0.25,
    });
    expect(reportedDifference(reference, candidate, 'label')).toEqual({
      reference: 'x',
      candidate: null,
      difference: null,
    });
  });
});

describe('sharedExampleField', () => {
  it('needs both runs to name the same field', () => {
    expect(sharedExampleField(reference, candidate, 'acc')).toBe('correct');
    expect(sharedExampleField(reference, candidate, 'len')).toBeNull();
    const other = makeRun({ metricDefinitions: { acc: { example_field: 'right' } } });
    expect(sharedExampleField(reference, other, 'acc')).toBeNull();
  });
});

describe('metricComparisons', () => {
  const comparisons = metricComparisons(
    'exp',
    reference,
    candidate,
    pairExamples(reference, candidate),
    1000,
  );
  const byName = (name: string) => comparisons.find((m) => m.name === name)!;

  it('has one entry per metric logged by either run, sorted', () => {
    expect(comparisons.map((m) => m.name)).toEqual(['acc', 'label', 'len', 'score']);
  });

  it('pairs over matched ids with the field present, not null and numeric on both sides', () => {
    const acc = byName('acc').paired!;
    // ids 1–4 are matched; booleans count 0/1 and C/I grades 1/0: differences 1, 0, 1, 1.
    expect(acc.n).toBe(4);
    expect(acc.difference).toBe(0.75);
    expect(acc.input_mismatch).toEqual(['4']);
    expect(acc.seed).toBe(bootstrapSeed('exp', 'run-a', 'run-b', 'acc'));
    expect(acc.method).toBe('Tango score interval (two-valued outcomes)');
    expect(acc.small_n).toBe(true);
    expect(acc.resamples).toBe(1000);
    // ids 3 (null) and 5/6 (unmatched) drop out; "n/a" is not a number.
    expect(byName('score').paired).toMatchObject({ n: 3, difference: 1 / 3 });
  });

  it('gives no interval without a shared example field, and says so in the verdict', () => {
    expect(byName('len')).toMatchObject({
      example_field: null,
      paired: null,
      reported: { difference: 2 },
      expect: null,
      verdict: null,
    });
  });

  it('reports the tests beside the interval', () => {
    const acc = byName('acc').paired!;
    // Three tied differences of 1: W+ = 6 only when all three are +, so the exact two-sided
    // p = 2·(1/2)³ = 0.25 (hand-worked); the sign test on 3 up, 0 down gives the same.
    expect(acc.wilcoxon).toEqual({ n: 3, statistic: 0, p_value: 0.25, method: 'exact' });
    expect(acc.p_value).toBe(0.25);
    expect(acc.p_method).toBe('exact sign test');
    expect(acc.sd).toBeCloseTo(0.5, 12);
    expect(acc.mde).toBeGreaterThan(0);
  });

  it('keeps n = 0 explicit when no pair has the field', () => {
    const empty = makeRun({ ...candidate, examples: [makeExample('1', {})] });
    const [acc] = metricComparisons('exp', reference, empty, pairExamples(reference, empty));
    expect(acc!.paired).toMatchObject({
      n: 0,
      difference: null,
      ci95: null,
      p_value: null,
      wilcoxon: null,
      small_n: true,
    });
    expect(acc!.verdict).toBe('too_few_examples');
  });
});

describe('verdictFor', () => {
  it.each([
    ['increase', [0.1, 0.5], 'consistent'],
    ['increase', [-0.5, -0.1], 'inconsistent'],
    ['increase', [-0.1, 0.5], 'inconclusive'],
    ['increase', [0, 0.5], 'inconclusive'],
    ['decrease', [-0.5, -0.1], 'consistent'],
    ['decrease', [0.1, 0.5], 'inconsistent'],
    ['no_effect', [-0.1, 0.1], 'consistent'],
    ['no_effect', [0, 0], 'consistent'],
    ['no_effect', [0.1, 0.2], 'inconsistent'],
    ['decrease', null, 'inconclusive'],
    [null, [0.1, 0.2], null],
    ['no_effect', [0, NaN], 'inconclusive'],
    ['increase', [Infinity, Infinity], 'inconclusive'],
  ] as const)('%s with %j → %s', (expectation, ci, verdict) => {
    const paired = ci === null ? null : { ci95: ci as [number, number], small_n: false };
    expect(verdictFor(expectation, paired)).toBe(verdict);
  });

  it('gives no verdict below the minimum n, whatever the interval', () => {
    expect(verdictFor('increase', { ci95: [1, 1], small_n: true })).toBe('too_few_examples');
    expect(verdictFor(null, { ci95: [1, 1], small_n: true })).toBeNull();
  });
});

describe('metrics defined but not logged', () => {
  it('still get a paired difference when both runs name the same example field', () => {
    const definitions = {
      refusal_rate: { example_field: 'refused', direction: 'lower_is_better' as const },
    };
    const ref = makeRun({
      runId: 'a',
      metrics: {},
      metricDefinitions: definitions,
      examples: [makeExample('1', { refused: true }), makeExample('2', { refused: true })],
    });
    const cand = makeRun({
      runId: 'b',
      metrics: {},
      metricDefinitions: definitions,
      examples: [makeExample('1', { refused: false }), makeExample('2', { refused: true })],
    });
    const [m] = metricComparisons('exp', ref, cand, pairExamples(ref, cand), 500);
    expect(m).toMatchObject({
      name: 'refusal_rate',
      example_field: 'refused',
      reported: { reference: null, candidate: null, difference: null },
    });
    expect(m!.paired).toMatchObject({ n: 2, difference: -0.5 });
  });
});
