import { describe, expect, it } from 'vitest';
import { forestPlotSvg } from '../../../electron/core/findings/forest-plot';
import { buildExperimentReport } from '../../../shared/compare/report';
import { meanInterval } from '../../../shared/compare/stats/mean-interval';
import { EXP1_EXPERIMENT, exp1Runs, makeExample, makeRun } from '../../fixtures/compare';

describe('per-run scorecards', () => {
  it('list each run with its own metrics, descriptions and example count', () => {
    const report = buildExperimentReport(EXP1_EXPERIMENT, exp1Runs(), { resamples: 200 });
    expect(report.runs.map((r) => r.condition)).toEqual(
      [...report.runs.map((r) => r.condition)].sort(),
    );
    const reference = report.runs.find((r) => r.condition === 'reference')!;
    expect(reference.examples).toBe(20);
    expect(reference.errored).toBeUndefined();
    expect(reference.metrics.map((m) => m.name)).toContain('refusal_rate');
  });

  it('count errored examples when a run has some', () => {
    const run = makeRun({
      metrics: { acc: 0.5 },
      metricDefinitions: { acc: { description: 'Accuracy.', example_field: 'ok' } },
      examples: [makeExample('a', { ok: 1 }), makeExample('b', { ok: 0 }, { error: 'timeout' })],
    });
    const other = makeRun({ runId: 'run-2', conditionName: 'other', examples: [] });
    const report = buildExperimentReport(EXP1_EXPERIMENT, [run, other], { resamples: 100 });
    expect(report.runs[1]).toMatchObject({
      condition: 'reference',
      examples: 2,
      errored: 1,
      metrics: [{ name: 'acc', value: 0.5, description: 'Accuracy.' }],
    });
  });
});

describe('series reference', () => {
  it('names the reference every difference is measured from', () => {
    const report = buildExperimentReport(EXP1_EXPERIMENT, exp1Runs(), { resamples: 200 });
    expect(report.series.length).toBeGreaterThan(0);
    for (const s of report.series)
      expect(s.reference).toEqual({ condition: 'reference', level: null });
  });
});

describe('the interval of one run’s mean', () => {
  it('is Wilson for 0/1 values and never a point at 0 % or 100 %', () => {
    const all = meanInterval(Array.from({ length: 20 }, () => 1))!;
    expect(all.ci95[1]).toBe(1);
    expect(all.ci95[0]).toBeCloseTo(0.8389, 3);
  });

  it('is Student t for scores, and absent below two values', () => {
    const r = meanInterval([1, 2, 3, 4, 5])!;
    expect(r.mean).toBe(3);
    expect(r.ci95[0]).toBeCloseTo(3 - (2.776445 * Math.sqrt(2.5)) / Math.sqrt(5), 5);
    expect(meanInterval([1])).toBeNull();
  });
});

describe('the exported forest plot', () => {
  it('draws only values with an interval: a lone dot would look precise', () => {
    const svg = forestPlotSvg(
      't',
      [
        { label: 'with', difference: 0.1, ci95: [0, 0.2] },
        { label: 'reported only', difference: 0.3, ci95: null },
      ],
      (s) => s,
    );
    expect(svg.match(/<circle/g)).toHaveLength(1);
    expect(svg).toContain('>with<');
    expect(svg).not.toContain('reported only');
  });
});
