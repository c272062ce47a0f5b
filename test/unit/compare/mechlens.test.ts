import { describe, expect, it } from 'vitest';
import { buildExperimentReport } from '../../../shared/compare/report';
import type { CheckStatus, Comparison, Report } from '../../../shared/compare/types';
import { EXP1_EXPERIMENT, EXP2_EXPERIMENT, exp1Runs, exp2Runs } from '../../fixtures/compare';

/**
 * The statuses, ids and paired differences of samples/mechlens/<experiment>/EXPECTED.json (written by the
 * reference script check_mechlens.py), transcribed here: the tests never read /work/shared.
 * Checks are `path=status` with M matches, D differs, U unknown, N not applicable; example ids
 * are given by their numeric suffix; metrics are [reported reference, reported candidate,
 * reported difference, paired n, paired difference], the differences rounded to 6 places.
 */
interface Expected {
  checks: string;
  summary: Record<CheckStatus, number>;
  evaluatedDiffers: boolean;
  onlyReference: string[];
  onlyCandidate: string[];
  inputMismatch: string[];
  behavior: string[];
  output: string[];
  metrics: Record<string, [number, number, number, number, number]>;
}

const EXP1: Record<string, Expected> = {
  'steer-4521 vs reference': {
    checks:
      'model.id=M model.revision=M dataset.id=M dataset.revision=M dataset.split=M sae.hook_point=M sae.release=M sae.sae_id=M intervention.feature_id=D intervention.steering_strength=D intervention.type=D generation.do_sample=M generation.max_new_tokens=M generation.temperature=M config.batch_size=M seed=M code_commit=M metric_definitions.mean_score=M metric_definitions.refusal_rate=M examples.ids=M examples.inputs=M',
    summary: { matches: 18, differs: 3, unknown: 0, 'not applicable': 0 },
    evaluatedDiffers: false,
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: [],
    behavior: ['001', '003', '008', '011', '017'],
    output: ['001', '003', '008', '011', '017'],
    metrics: {
      mean_score: [3.15, 4.1, 0.95, 20, 0.95],
      refusal_rate: [0.4, 0.15, -0.25, 20, -0.25],
    },
  },
  'steer-4521 vs steer-random-feature': {
    checks:
      'model.id=M model.revision=M dataset.id=M dataset.revision=M dataset.split=M sae.hook_point=M sae.release=M sae.sae_id=M intervention.feature_id=D intervention.steering_strength=M intervention.type=M generation.do_sample=M generation.max_new_tokens=M generation.temperature=M config.batch_size=M seed=M code_commit=M metric_definitions.mean_score=M metric_definitions.refusal_rate=M examples.ids=M examples.inputs=M',
    summary: { matches: 20, differs: 1, unknown: 0, 'not applicable': 0 },
    evaluatedDiffers: false,
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: [],
    behavior: ['001', '003', '008', '011', '017', '019', '020'],
    output: ['001', '002', '003', '008', '011', '017', '019', '020'],
    metrics: {
      mean_score: [3.15, 4.1, 0.95, 20, 0.95],
      refusal_rate: [0.4, 0.15, -0.25, 20, -0.25],
    },
  },
  'steering_strength@-2.0 vs reference': {
    checks:
      'model.id=M model.revision=M dataset.id=M dataset.revision=M dataset.split=M sae.hook_point=M sae.release=M sae.sae_id=M intervention.feature_id=D intervention.steering_strength=D intervention.type=D generation.do_sample=M generation.max_new_tokens=M generation.temperature=M config.batch_size=M seed=M code_commit=M metric_definitions.mean_score=M metric_definitions.refusal_rate=M examples.ids=M examples.inputs=M',
    summary: { matches: 18, differs: 3, unknown: 0, 'not applicable': 0 },
    evaluatedDiffers: false,
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: [],
    behavior: ['001', '011', '017'],
    output: ['001', '011', '017'],
    metrics: {
      mean_score: [3.15, 3.75, 0.6, 20, 0.6],
      refusal_rate: [0.4, 0.25, -0.15, 20, -0.15],
    },
  },
  'steering_strength@-8.0 vs reference': {
    checks:
      'model.id=M model.revision=M dataset.id=M dataset.revision=M dataset.split=M sae.hook_point=M sae.release=M sae.sae_id=M intervention.feature_id=D intervention.steering_strength=D intervention.type=D generation.do_sample=M generation.max_new_tokens=M generation.temperature=M config.batch_size=M seed=M code_commit=M metric_definitions.mean_score=M metric_definitions.refusal_rate=M examples.ids=M examples.inputs=M',
    summary: { matches: 18, differs: 3, unknown: 0, 'not applicable': 0 },
    evaluatedDiffers: false,
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: [],
    behavior: [
      '001',
      '002',
      '003',
      '004',
      '005',
      '006',
      '007',
      '008',
      '009',
      '010',
      '011',
      '012',
      '013',
      '015',
      '016',
      '017',
      '018',
      '019',
      '020',
    ],
    output: [
      '001',
      '002',
      '003',
      '004',
      '005',
      '006',
      '007',
      '008',
      '009',
      '010',
      '011',
      '012',
      '013',
      '015',
      '016',
      '017',
      '018',
      '019',
      '020',
    ],
    metrics: {
      mean_score: [3.15, 2.4, -0.75, 20, -0.75],
      refusal_rate: [0.4, 0.05, -0.35, 20, -0.35],
    },
  },
  'steer-random-feature vs reference': {
    checks:
      'model.id=M model.revision=M dataset.id=M dataset.revision=M dataset.split=M sae.hook_point=M sae.release=M sae.sae_id=M intervention.feature_id=D intervention.steering_strength=D intervention.type=D generation.do_sample=M generation.max_new_tokens=M generation.temperature=M config.batch_size=M seed=M code_commit=M metric_definitions.mean_score=M metric_definitions.refusal_rate=M examples.ids=M examples.inputs=M',
    summary: { matches: 18, differs: 3, unknown: 0, 'not applicable': 0 },
    evaluatedDiffers: false,
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: [],
    behavior: ['019', '020'],
    output: ['002', '003', '008', '019', '020'],
    metrics: { mean_score: [3.15, 3.15, 0.0, 20, 0.0], refusal_rate: [0.4, 0.4, 0.0, 20, 0.0] },
  },
  'steering_strength@-1.0 vs reference': {
    checks:
      'model.id=M model.revision=M dataset.id=M dataset.revision=M dataset.split=M sae.hook_point=M sae.release=M sae.sae_id=M intervention.feature_id=D intervention.steering_strength=D intervention.type=D generation.do_sample=M generation.max_new_tokens=M generation.temperature=M config.batch_size=M seed=M code_commit=M metric_definitions.mean_score=M metric_definitions.refusal_rate=M examples.ids=M examples.inputs=M',
    summary: { matches: 18, differs: 3, unknown: 0, 'not applicable': 0 },
    evaluatedDiffers: false,
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: [],
    behavior: ['017'],
    output: ['017'],
    metrics: {
      mean_score: [3.15, 3.35, 0.2, 20, 0.2],
      refusal_rate: [0.4, 0.35, -0.05, 20, -0.05],
    },
  },
};

const EXP2: Record<string, Expected> = {
  'ablate-random-direction vs reference': {
    checks:
      'model.id=M model.revision=M dataset.id=M dataset.revision=M dataset.split=M sae.hook_point=D sae.release=D sae.sae_id=D intervention.direction=D intervention.layers=D intervention.source_layer=D intervention.type=D generation.do_sample=M generation.max_new_tokens=M generation.temperature=M seed=M code_commit=M metric_definitions.refusal_rate=D examples.ids=M examples.inputs=D',
    summary: { matches: 11, differs: 9, unknown: 0, 'not applicable': 0 },
    evaluatedDiffers: true,
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: ['ps-007'],
    behavior: ['014'],
    output: ['014'],
    metrics: { refusal_rate: [0.95, 0.9, -0.05, 20, -0.05] },
  },
  'ablate-refusal-direction vs reference': {
    checks:
      'model.id=M model.revision=U dataset.id=M dataset.revision=M dataset.split=D sae.hook_point=M sae.release=M sae.sae_id=M intervention.direction=D intervention.layers=D intervention.source_layer=D intervention.type=D generation.do_sample=M generation.max_new_tokens=M generation.temperature=M seed=M code_commit=M metric_definitions.refusal_rate=M examples.ids=D examples.inputs=M',
    summary: { matches: 13, differs: 6, unknown: 1, 'not applicable': 0 },
    evaluatedDiffers: true,
    onlyReference: [],
    onlyCandidate: ['ps-021'],
    inputMismatch: [],
    behavior: [
      '001',
      '002',
      '003',
      '004',
      '006',
      '007',
      '008',
      '009',
      '010',
      '011',
      '013',
      '014',
      '015',
      '016',
      '017',
      '018',
      '019',
      '020',
    ],
    output: [
      '001',
      '002',
      '003',
      '004',
      '006',
      '007',
      '008',
      '009',
      '010',
      '011',
      '013',
      '014',
      '015',
      '016',
      '017',
      '018',
      '019',
      '020',
    ],
    metrics: { refusal_rate: [0.95, 0.047619, -0.902381, 20, -0.9] },
  },
  'ablate-refusal-direction vs ablate-random-direction': {
    checks:
      'model.id=M model.revision=U dataset.id=M dataset.revision=M dataset.split=D sae.hook_point=D sae.release=D sae.sae_id=D intervention.direction=D intervention.layers=M intervention.source_layer=M intervention.type=M generation.do_sample=M generation.max_new_tokens=M generation.temperature=M seed=M code_commit=M metric_definitions.refusal_rate=D examples.ids=D examples.inputs=D',
    summary: { matches: 11, differs: 8, unknown: 1, 'not applicable': 0 },
    evaluatedDiffers: true,
    onlyReference: [],
    onlyCandidate: ['ps-021'],
    inputMismatch: ['ps-007'],
    behavior: [
      '001',
      '002',
      '003',
      '004',
      '006',
      '007',
      '008',
      '009',
      '010',
      '011',
      '013',
      '015',
      '016',
      '017',
      '018',
      '019',
      '020',
    ],
    output: [
      '001',
      '002',
      '003',
      '004',
      '006',
      '007',
      '008',
      '009',
      '010',
      '011',
      '013',
      '015',
      '016',
      '017',
      '018',
      '019',
      '020',
    ],
    metrics: { refusal_rate: [0.9, 0.047619, -0.852381, 20, -0.85] },
  },
};

const STATUS: Record<string, CheckStatus> = {
  M: 'matches',
  D: 'differs',
  U: 'unknown',
  N: 'not applicable',
};

function byPair(report: Report): Map<string, Comparison> {
  return new Map(
    report.comparisons.map((c) => [`${c.candidate.condition} vs ${c.reference.condition}`, c]),
  );
}

function expectMatches(report: Report, expected: Record<string, Expected>, prefix: string) {
  const comparisons = byPair(report);
  expect([...comparisons.keys()].sort()).toEqual(Object.keys(expected).sort());
  const ids = (suffixes: string[]) => suffixes.map((s) => `${prefix}-${s}`);
  for (const [key, e] of Object.entries(expected)) {
    const c = comparisons.get(key)!;
    const checks = e.checks.split(' ').map((entry) => {
      const [path, status] = entry.split('=') as [string, string];
      return [path, STATUS[status]];
    });
    expect(
      c.checks.map((x) => [x.path, x.status]),
      key,
    ).toEqual(checks);
    expect(c.summary, key).toEqual(e.summary);
    expect(c.evaluated_differs, key).toBe(e.evaluatedDiffers);
    expect(c.coverage.only_reference, key).toEqual(e.onlyReference);
    expect(c.coverage.only_candidate, key).toEqual(e.onlyCandidate);
    expect(c.coverage.input_mismatch, key).toEqual(e.inputMismatch);
    expect(c.examples.behavior_changed, key).toEqual(ids(e.behavior));
    expect(c.examples.output_changed, key).toEqual(ids(e.output));
    expect(
      c.metrics.map((m) => m.name),
      key,
    ).toEqual(Object.keys(e.metrics).sort());
    for (const [name, [refValue, candValue, reported, n, paired]] of Object.entries(e.metrics)) {
      const m = c.metrics.find((x) => x.name === name)!;
      expect(m.reported.reference).toBe(refValue);
      expect(m.reported.candidate).toBe(candValue);
      expect(m.reported.difference).toBeCloseTo(reported, 6);
      expect(m.paired?.n).toBe(n);
      expect(m.paired?.difference).toBeCloseTo(paired, 6);
      expect(m.paired?.ci95?.[0]).toBeLessThanOrEqual(m.paired!.difference!);
      expect(m.paired?.ci95?.[1]).toBeGreaterThanOrEqual(m.paired!.difference!);
    }
  }
}

describe('MechLens exp1 (refusal steering)', () => {
  const report = buildExperimentReport(EXP1_EXPERIMENT, exp1Runs(), { resamples: 2000 });

  it('reproduces every status, id list and paired difference of EXPECTED.json', () => {
    expect(report.experiment).toMatchObject({ id: 'exp-ace9299585e9', reference: 'reference' });
    expectMatches(report, EXP1, 'bb');
  });

  it('draws the steering series in level order with a trend', () => {
    const refusal = report.series.find((s) => s.metric === 'refusal_rate')!;
    expect(refusal.points.map((p) => [p.condition, p.level, p.value])).toEqual([
      ['steering_strength@-8.0', -8, 0.05],
      ['steering_strength@-2.0', -2, 0.25],
      ['steering_strength@-1.0', -1, 0.35],
    ]);
    expect(refusal.points.map((p) => p.difference)).toEqual([
      expect.closeTo(-0.35, 9),
      expect.closeTo(-0.15, 9),
      expect.closeTo(-0.05, 9),
    ]);
    expect(refusal.trend).toEqual({
      spearman_rho: 1,
      p_value: 1 / 3,
      method: 'exact permutation',
    });
    expect(report.series.map((s) => [s.name, s.metric])).toEqual([
      ['steering_strength', 'mean_score'],
      ['steering_strength', 'refusal_rate'],
    ]);
  });

  it('judges the declared expectations by the interval', () => {
    const verdict = (pair: string) =>
      byPair(report)
        .get(pair)!
        .metrics.find((m) => m.name === 'refusal_rate')!;
    expect(verdict('steer-4521 vs reference')).toMatchObject({
      expect: 'decrease',
      verdict: 'consistent',
    });
    expect(verdict('steer-random-feature vs reference')).toMatchObject({
      expect: 'no_effect',
      verdict: 'consistent',
    });
    expect(verdict('steering_strength@-8.0 vs reference').verdict).toBe('consistent');
    expect(report.reproduction).toBeNull();
  });
});

describe('MechLens exp2 (refusal ablation, with problems)', () => {
  const report = buildExperimentReport(EXP2_EXPERIMENT, exp2Runs(), { resamples: 2000 });

  it('reproduces every status, id list and paired difference of EXPECTED.json', () => {
    expect(report.experiment).toMatchObject({ id: 'exp-763096c14555', reference: 'reference' });
    expectMatches(report, EXP2, 'ps');
  });

  it('fills the paper-vs-observed table', () => {
    expect(report.reproduction).toMatchObject({
      arxiv: '2406.11717',
      version: 'v3',
      where: 'Table 10',
      rows: [
        {
          metric: 'refusal_rate',
          condition: 'ablate-refusal-direction',
          paper: 0.01,
          observed: 0.047619,
          difference: 0.047619 - 0.01,
          observed_n: 21,
        },
        {
          metric: 'refusal_rate',
          condition: 'reference',
          paper: 0.95,
          observed: 0.95,
          difference: 0,
          observed_n: 20,
        },
      ],
    });
  });

  it('gives each observed value its 95 % interval: Wilson for a refusal rate', () => {
    const [ablate, reference] = report.reproduction!.rows;
    // Wilson score intervals for 1 of 21 and 19 of 20 (as published tables give them).
    expect(ablate!.observed_ci95![0]).toBeCloseTo(0.0085, 3);
    expect(ablate!.observed_ci95![1]).toBeCloseTo(0.2267, 3);
    expect(reference!.observed_ci95![0]).toBeCloseTo(0.7639, 3);
    expect(reference!.observed_ci95![1]).toBeCloseTo(0.9911, 3);
  });

  it('lists the limitations a researcher has to answer for', () => {
    const c = byPair(report).get('ablate-refusal-direction vs reference')!;
    expect(c.limitations).toEqual([
      "Declared deviation: Gemma-2-2B-IT instead of the paper's Llama-3 8B Instruct.",
      "Declared deviation: 20 prompts instead of the paper's 100.",
      'model.revision is unknown: the reference run (reference) records ' +
        '"299a8560bedf22ed1c72a8a11e7dce4a7f9f51f8" and the candidate run ' +
        '(ablate-refusal-direction) records nothing, so the runs cannot be confirmed to match on it.',
      'dataset.split differs (reference: "test", candidate: "validation"): the runs differ in what was evaluated.',
      'examples.ids differs: 1 example only in the candidate run (ps-021); the runs differ in what was evaluated.',
      'Coverage is partial: 20 examples paired, 0 only in the reference run and 1 only in the ' +
        'candidate run; unpaired examples are left out of the paired statistics.',
    ]);
    const refused = c.criteria.find((x) => x.field === 'refused')!;
    expect(refused).toMatchObject({
      direction: 'lower_is_better',
      improved: 18,
      regressed: 0,
      unchanged: 2,
      not_comparable: 1,
    });
    expect(refused.mcnemar).toEqual({ improved: 18, regressed: 0, p_value: 2 / 2 ** 18 });
  });
});
