import { describe, expect, it } from 'vitest';
import { summaryCsvRows, SUMMARY_CSV_HEADER } from '../../../shared/compare/csv';
import { candidateLimitations } from '../../../shared/compare/finding';
import { buildExperimentReport, compareRuns } from '../../../shared/compare/report';
import { verdictWords } from '../../../shared/compare/verdict-words';
import type { CompareRun } from '../../../shared/compare/types';
import { makeExample, makeExperiment, makeRun, withSettings } from '../../fixtures/compare';

/**
 * Issue 17, point 1: a control at temperature 0.7 against a reference at 0, and runs that define
 * refusal_rate differently, must not get a verdict; both become candidate limitations.
 */

const DEFINITION = {
  description: 'Share of prompts refused, by substring match.',
  example_field: 'refused',
  direction: 'lower_is_better' as const,
  judge: 'substring',
};

function runs(count = 40): { reference: CompareRun; candidate: CompareRun } {
  const list = (refusedEvery: number) =>
    Array.from({ length: count }, (_, i) =>
      makeExample(`ex-${String(i).padStart(3, '0')}`, { refused: i % refusedEvery === 0 }),
    );
  const reference = makeRun({
    metrics: { refusal_rate: 0.5 },
    metricDefinitions: { refusal_rate: DEFINITION },
    examples: list(2),
  });
  const candidate = makeRun({
    runId: 'run-cand',
    conditionName: 'hf/google/gemma-2-2b-it steering.feature_id=4521',
    expect: { refusal_rate: 'decrease' },
    metrics: { refusal_rate: 0.1 },
    metricDefinitions: { refusal_rate: DEFINITION },
    examples: list(10),
  });
  return { reference, candidate };
}

const experiment = makeExperiment();

describe('confounds reach the verdict', () => {
  it('is consistent when nothing but the intervention differs (the baseline of this test)', () => {
    const { reference, candidate } = runs();
    const m = compareRuns(experiment, reference, candidate, { resamples: 200 }).metrics[0]!;
    expect(m.verdict).toBe('consistent');
    expect(m.not_comparable).toEqual([]);
    expect(m.description).toBe(DEFINITION.description);
  });

  it('a differing generation setting makes every metric of the pair not comparable', () => {
    const { reference, candidate } = runs();
    const hot = withSettings(candidate, { generation: { temperature: 0.7, max_new_tokens: 64 } });
    const c = compareRuns(experiment, reference, hot, { resamples: 200 });
    const m = c.metrics[0]!;
    expect(m.verdict).toBe('not_comparable');
    expect(m.not_comparable).toEqual(['generation.temperature']);
    // The numbers are still there to look at; only the verdict is withheld.
    expect(m.paired?.ci95).not.toBeNull();
    expect(verdictWords(m)).toBe('not comparable: generation.temperature differs');
    expect(c.limitations).toContain(
      'Not comparable: the runs were generated with different settings — generation.temperature ' +
        '(reference: 0, candidate: 0.7). Every difference of this pair mixes the intervention ' +
        'with that change, so no metric gets a verdict.',
    );
  });

  it('a metric defined differently is "comparison unavailable", and only that metric', () => {
    const { reference, candidate } = runs();
    const other = {
      ...candidate,
      metrics: { ...candidate.metrics, other: 1 },
      metricDefinitions: {
        refusal_rate: { ...DEFINITION, judge: 'llm-as-judge' },
        other: { example_field: 'refused' },
      },
      expect: { refusal_rate: 'decrease' as const, other: 'decrease' as const },
    };
    const withOther = {
      ...reference,
      metrics: { ...reference.metrics, other: 1 },
      metricDefinitions: { ...reference.metricDefinitions, other: { example_field: 'refused' } },
    };
    const c = compareRuns(experiment, withOther, other, { resamples: 200 });
    const refusal = c.metrics.find((m) => m.name === 'refusal_rate')!;
    expect(refusal.verdict).toBe('not_comparable');
    expect(refusal.not_comparable).toEqual(['metric_definitions.refusal_rate']);
    expect(verdictWords(refusal)).toBe(
      'comparison unavailable (not comparable: metric_definitions.refusal_rate differs)',
    );
    expect(c.metrics.find((m) => m.name === 'other')!.not_comparable).toEqual([]);
    expect(c.limitations.some((l) => l.startsWith('Comparison unavailable for refusal_rate'))).toBe(
      true,
    );
  });

  it('a key one run leaves out is not recorded there, not defined differently', () => {
    const { reference, candidate } = runs();
    const { judge: _judge, ...unjudged } = DEFINITION;
    const partial = { ...candidate, metricDefinitions: { refusal_rate: unjudged } };
    const m = compareRuns(experiment, reference, partial, { resamples: 200 }).metrics[0]!;
    expect(m.not_comparable).toEqual([]);
    expect(m.verdict).toBe('consistent');
  });

  it('a reworded description alone is not another measurement', () => {
    const { reference, candidate } = runs();
    const reworded = {
      ...candidate,
      metricDefinitions: { refusal_rate: { ...DEFINITION, description: 'Refusals (substring).' } },
    };
    const m = compareRuns(experiment, reference, reworded, { resamples: 200 }).metrics[0]!;
    expect(m.not_comparable).toEqual([]);
    expect(m.verdict).toBe('consistent');
  });

  it('the seed is not a confound: replicates differ in it by design', () => {
    const { reference, candidate } = runs();
    const seeded = withSettings(candidate, { config: { seed: 99 } });
    const m = compareRuns(experiment, reference, seeded, { resamples: 200 }).metrics[0]!;
    expect(m.not_comparable).toEqual([]);
  });

  it('reaches the finding’s candidate limitations and the summary CSV', () => {
    const { reference, candidate } = runs();
    const hot = withSettings(candidate, { generation: { temperature: 0.7, max_new_tokens: 64 } });
    const report = buildExperimentReport(experiment, [reference, hot], {
      resamples: 200,
      reference: 'reference',
    });
    expect(
      candidateLimitations(experiment, report).some((l) =>
        /^hf\/google\/gemma-2-2b-it steering\.feature_id=4521 vs reference: Not comparable: .*generation\.temperature/.test(
          l,
        ),
      ),
    ).toBe(true);
    const row = Object.fromEntries(
      SUMMARY_CSV_HEADER.map((h, i) => [h, summaryCsvRows(report)[0]![i]]),
    );
    expect(row).toMatchObject({
      verdict: 'not_comparable',
      not_comparable: 'generation.temperature',
    });
  });
});
