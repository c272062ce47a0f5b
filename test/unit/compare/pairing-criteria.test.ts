import { describe, expect, it } from 'vitest';
import {
  classifyExample,
  criterionRules,
  passValue,
  summarizeCriteria,
} from '../../../shared/compare/criteria';
import { coverageOf, exampleChanges, pairExamples } from '../../../shared/compare/pairing';
import type { CompareRun } from '../../../shared/compare/types';
import { makeExample, makeRun } from '../../fixtures/compare';

describe('pairing', () => {
  const ref = makeRun({
    examples: [
      makeExample('b', { x: 1 }),
      makeExample('a', { x: 1, y: 2 }),
      makeExample('d', { x: 1 }, { input: 'old text' }),
      makeExample('c', { x: 1 }),
      makeExample('a', { x: 99 }),
    ],
  });
  const cand = makeRun({
    runId: 'run-cand',
    examples: [
      makeExample('e', {}),
      makeExample('a', { y: 2, x: 1.0 }, { output: 'answer a' }),
      makeExample('d', { x: 2 }, { input: 'new text' }),
      makeExample('c', { x: 1, z: null }),
    ],
  });

  it('matches by id only and lists sorted coverage', () => {
    const pairing = pairExamples(ref, cand);
    expect(coverageOf(pairing)).toEqual({
      paired: 3,
      only_reference: ['b'],
      only_candidate: ['e'],
      input_mismatch: ['d'],
    });
    expect(pairing.all).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps the first row of a repeated id', () => {
    const { reference } = pairExamples(ref, cand);
    expect(reference.examples[reference.ids.indexOf('a')]!.fields).toEqual({ x: 1, y: 2 });
  });

  it('pairs a run in id order as it pairs the same run shuffled, repeated ids included', () => {
    const ordered = makeRun({
      examples: [
        makeExample('a', { x: 1, y: 2 }),
        makeExample('a', { x: 99 }),
        makeExample('b', { x: 1 }),
        makeExample('c', { x: 1 }),
        makeExample('d', { x: 1 }, { input: 'old text' }),
      ],
    });
    const inOrder = pairExamples(ordered, cand);
    const shuffled = pairExamples(ref, cand);
    expect(inOrder.all).toEqual(shuffled.all);
    expect(inOrder.allReference).toEqual(shuffled.allReference);
    expect(inOrder.matchedCandidate).toEqual(shuffled.matchedCandidate);
    const distinct = makeRun({ examples: [makeExample('a', {}), makeExample('b', {})] });
    expect(pairExamples(distinct, cand).reference.examples).toBe(distinct.examples);
  });

  it('flags output (exact text) and behaviour (deep field equality) changes', () => {
    expect(exampleChanges(pairExamples(ref, cand))).toEqual({
      // c: a key present on one side only is a change, even with a null value.
      behavior_changed: ['c', 'd'],
      // a: "Answer a" vs "answer a": case counts.
      output_changed: ['a'],
    });
  });

  it('does not count list or object fields (per-choice scores, epochs) as a behaviour change', () => {
    const run = (scores: number[], correct: boolean, extra = {}) =>
      makeRun({
        examples: [makeExample('q', { acc: correct, choice_loglikelihoods: scores, ...extra })],
      });
    const before = run([-1.2345678901, -3.5], true);
    const drifted = run([-1.2345678912, -3.5000000001], true);
    expect(exampleChanges(pairExamples(before, drifted)).behavior_changed).toEqual([]);
    expect(exampleChanges(pairExamples(before, run([-1, -3], false))).behavior_changed).toEqual([
      'q',
    ]);
    const withEpochs = run([-1, -3], true, { epochs: [{ epoch: 1 }] });
    expect(exampleChanges(pairExamples(before, withEpochs)).behavior_changed).toEqual([]);
    const scalarNow = run([-1, -3], true, { choice_loglikelihoods: 2 });
    expect(exampleChanges(pairExamples(before, scalarNow)).behavior_changed).toEqual(['q']);
    // Either way round: a null on one side only is a change from both sides.
    const withNull = run([-1, -3], true, { label: null });
    expect(exampleChanges(pairExamples(before, withNull)).behavior_changed).toEqual(['q']);
    expect(exampleChanges(pairExamples(withNull, before)).behavior_changed).toEqual(['q']);
  });

  it('pairs sorted and unsorted runs alike, and pairs the same two runs once', () => {
    const sorted = (run: CompareRun) =>
      makeRun({ ...run, examples: [...run.examples].sort((x, y) => (x.id < y.id ? -1 : 1)) });
    const a = sorted(ref);
    const b = sorted(cand);
    expect(pairExamples(a, b).all).toEqual(pairExamples(ref, cand).all);
    expect(coverageOf(pairExamples(a, b))).toEqual(coverageOf(pairExamples(ref, cand)));
    expect(pairExamples(ref, cand)).toBe(pairExamples(ref, cand));
  });

  it('does not match ids by position or text', () => {
    const left = makeRun({ examples: [makeExample('1', {}, { input: 'same' })] });
    const right = makeRun({ runId: 'r2', examples: [makeExample('2', {}, { input: 'same' })] });
    expect(coverageOf(pairExamples(left, right)).paired).toBe(0);
  });
});

const lowerIsBetter = { example_field: 'refused', direction: 'lower_is_better' } as const;

function pair(
  refFields: Record<string, unknown>[],
  candFields: Record<string, unknown>[],
  definitions: CompareRun['metricDefinitions'] = { refusal_rate: lowerIsBetter },
  candDefinitions = definitions,
) {
  const build = (runId: string, rows: Record<string, unknown>[], defs: typeof definitions) =>
    makeRun({
      runId,
      metricDefinitions: defs,
      examples: rows.map((fields, i) =>
        makeExample(`id-${i}`, fields as never, {
          error: fields.__error ? 'boom' : null,
        }),
      ),
    });
  const reference = build('r1', refFields, definitions);
  const candidate = build('r2', candFields, candDefinitions);
  const pairing = pairExamples(reference, candidate);
  const rules = criterionRules(reference, candidate);
  return { reference, candidate, pairing, rules, summary: summarizeCriteria(rules, pairing) };
}

describe('criteria', () => {
  it('makes no criterion of a field holding lists or objects, such as per-choice scores', () => {
    const { rules } = pair(
      [
        { acc: 1, choice_loglikelihoods: [-1.25, -0.5] },
        { acc: 0, extra: null },
      ],
      [
        { acc: 1, choice_loglikelihoods: [-1.2500000001, -0.5] },
        { acc: 0, extra: { a: 1 } },
      ],
    );
    expect(rules.map((rule) => rule.field)).toEqual(['acc']);
  });

  it('uses the agreed direction; booleans count as 0/1', () => {
    const { summary } = pair(
      [{ refused: true }, { refused: false }, { refused: true }, { refused: true }],
      [{ refused: false }, { refused: true }, { refused: true }, { refused: null }],
    );
    expect(summary).toEqual([
      {
        field: 'refused',
        direction: 'lower_is_better',
        kind: 'numeric',
        improved: 1,
        regressed: 1,
        unchanged: 1,
        changed: 0,
        not_comparable: 1,
        mcnemar: { improved: 1, regressed: 1, p_value: 1 },
        wilcoxon: null,
      },
    ]);
  });

  it('gives numeric criteria with more than two values a Wilcoxon signed-rank test', () => {
    // Differences +1, +2, +3, +4, −5: W+ = 10, W− = 5, T = 5; exact two-sided p = 2·P(W ≤ 5 | n = 5)
    // = 2·10/32 = 0.625 (counting signed-rank subsets summing to ≤ 5 out of 2^5).
    const { summary } = pair(
      [{ score: 1 }, { score: 1 }, { score: 1 }, { score: 1 }, { score: 6 }],
      [{ score: 2 }, { score: 3 }, { score: 4 }, { score: 5 }, { score: 1 }],
      { mean_score: { example_field: 'score', direction: 'higher_is_better' } },
    );
    expect(summary[0]!.mcnemar).toBeNull();
    expect(summary[0]!.wilcoxon).toMatchObject({ n: 5, statistic: 5, method: 'exact' });
    expect(summary[0]!.wilcoxon!.p_value).toBeCloseTo(0.625, 12);
  });

  it('falls back to changed/unchanged when the runs declare different directions', () => {
    const { summary } = pair([{ refused: true }], [{ refused: false }], undefined, {
      refusal_rate: { example_field: 'refused', direction: 'higher_is_better' },
    });
    expect(summary[0]).toMatchObject({ direction: null, kind: 'categorical', changed: 1 });
  });

  it('never turns text into an improvement', () => {
    const { summary } = pair(
      [{ label: 'cat' }, { label: 'dog' }],
      [{ label: 'dog' }, { label: 'dog' }],
      { m: { example_field: 'label', direction: 'higher_is_better' } },
    );
    expect(summary[0]).toMatchObject({ kind: 'numeric', changed: 1, unchanged: 1, improved: 0 });
    expect(summary[0]!.mcnemar).toBeNull();
  });

  it('classifies numbers without a direction as changed/unchanged only', () => {
    const { summary } = pair([{ score: 1 }, { score: 2 }], [{ score: 3 }, { score: 2.0 }], {});
    expect(summary[0]).toMatchObject({
      direction: null,
      kind: 'categorical',
      changed: 1,
      unchanged: 1,
    });
  });

  it('treats pass/fail outcomes as exact-match style: pass→fail regresses', () => {
    const { summary } = pair(
      [
        { grade: 'C' },
        { grade: 'I' },
        { verdict: 'pass' },
        { verdict: 'FAIL' },
        { exact_match: true },
      ],
      [
        { grade: 'I' },
        { grade: 'C' },
        { verdict: 'fail' },
        { verdict: 'Pass' },
        { exact_match: false },
      ],
      {},
    );
    expect(summary.map((s) => [s.field, s.kind, s.direction, s.improved, s.regressed])).toEqual([
      ['exact_match', 'pass_fail', 'higher_is_better', 0, 1],
      ['grade', 'pass_fail', 'higher_is_better', 1, 1],
      ['verdict', 'pass_fail', 'higher_is_better', 1, 1],
    ]);
    expect(summary[0]!.mcnemar).toEqual({ improved: 0, regressed: 1, p_value: 1 });
  });

  it('leaves fields holding only lists or objects out of the criteria', () => {
    const epochs = (output: string) => ({ count: 2, per_epoch: [{ epoch: 1, output }] });
    const { rules, summary } = pair(
      [
        { match: 1, epochs: epochs('a'), pair: ['x', 'y'] },
        { match: 0.5, epochs: null },
      ],
      [
        { match: 0.5, epochs: epochs('b'), pair: ['x', 'z'] },
        { match: 1, epochs: epochs('c') },
      ],
    );
    expect(rules.map((rule) => rule.field)).toEqual(['match']);
    expect(summary.map((criterion) => criterion.field)).toEqual(['match']);
  });

  it('does not read an arbitrary boolean as pass/fail', () => {
    const { summary } = pair([{ refused: true }], [{ refused: false }], {});
    expect(summary[0]).toMatchObject({ kind: 'categorical', changed: 1 });
  });

  it('counts every id of either run, errored and one-sided examples as not comparable', () => {
    const reference = makeRun({
      metricDefinitions: { refusal_rate: lowerIsBetter },
      examples: [
        makeExample('a', { refused: true }),
        makeExample('b', { refused: true }, { error: 'timeout' }),
        makeExample('c', { refused: true }),
      ],
    });
    const candidate = makeRun({
      runId: 'r2',
      metricDefinitions: { refusal_rate: lowerIsBetter },
      examples: [
        makeExample('a', { refused: false }),
        makeExample('b', { refused: false }),
        makeExample('d', { refused: false }),
        makeExample('e', {}),
      ],
    });
    const pairing = pairExamples(reference, candidate);
    const [summary] = summarizeCriteria(criterionRules(reference, candidate), pairing);
    expect(summary).toMatchObject({ improved: 1, not_comparable: 4 });
    const total = ['improved', 'regressed', 'unchanged', 'changed', 'not_comparable'] as const;
    expect(total.reduce((s, k) => s + summary![k], 0)).toBe(pairing.all.length);
  });

  it('exports the per-example class', () => {
    const rule = { field: 'score', direction: 'higher_is_better', kind: 'numeric' } as const;
    const ex = (score: unknown) => makeExample('x', { score: score as never });
    expect(classifyExample(rule, ex(3), ex(4))).toBe('improved');
    expect(classifyExample(rule, ex(3), ex(2))).toBe('regressed');
    expect(classifyExample(rule, ex(3), ex(3.0))).toBe('unchanged');
    expect(classifyExample(rule, ex(3), undefined)).toBe('not_comparable');
    expect(classifyExample(rule, ex(3), ex(null))).toBe('not_comparable');
    expect(classifyExample(rule, ex('3'), ex('4'))).toBe('changed');
  });

  it('knows the pass/fail vocabulary', () => {
    expect(['C', 'I', 'pass', 'Failed', 'correct', 'c', 'P', true, 0].map(passValue)).toEqual([
      1,
      0,
      1,
      0,
      1,
      null,
      null,
      1,
      null,
    ]);
  });
});
