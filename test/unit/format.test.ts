import { describe, expect, it } from 'vitest';
import {
  csvNumber,
  formatCounted,
  formatInterval,
  formatNumber,
  formatP,
  formatSigned,
} from '../../shared/format';
import { summaryCsvRows, SUMMARY_CSV_HEADER } from '../../shared/compare/csv';
import { compareRuns } from '../../shared/compare/report';
import type { MetricComparison, Report } from '../../shared/compare/types';
import { powerSentence } from '../../shared/compare/verdict-words';
import { makeExample, makeExperiment, makeRun } from '../fixtures/compare';

describe('one number formatter for text', () => {
  it('shows significant digits, not float noise and not a row of zeros', () => {
    expect(formatNumber(0.20000000000000018)).toBe('0.2');
    expect(formatNumber(0.000123456)).toBe('0.000123');
    expect(formatNumber(0.0000123456)).toBe('1.23e-5');
    expect(formatNumber(3.28571)).toBe('3.29');
    expect(formatNumber(12_345.6)).toBe('12346');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('signs differences and intervals, and never writes +0 or -0', () => {
    expect(formatSigned(0.0833333)).toBe('+0.0833');
    expect(formatSigned(-0.2)).toBe('-0.2');
    expect(formatSigned(0)).toBe('0');
    expect(formatSigned(-0)).toBe('0');
    expect(formatInterval([-0.125, 0.30000000000000004])).toBe('[-0.125, +0.3]');
    expect(formatInterval(null)).toBe('no interval');
    expect(formatP(0.0004)).toBe('< 0.001');
    expect(formatP(0.04)).toBe('0.040');
  });

  it('keeps CSV numbers numbers: integers exact, the rest to 6 significant digits', () => {
    expect(csvNumber(0.20000000000000018)).toBe(0.2);
    expect(csvNumber(1_234_567)).toBe(1_234_567);
    expect(csvNumber(1.23456789e-12)).toBe(1.23457e-12);
  });
});

describe('counts with their nouns', () => {
  it('says one run, not 1 runs, and groups large counts', () => {
    expect(formatCounted(1, 'run')).toBe('1 run');
    expect(formatCounted(0, 'run')).toBe('0 runs');
    expect(formatCounted(3, 'condition')).toBe('3 conditions');
    expect(formatCounted(1204, 'example')).toBe('1,204 examples');
    expect(formatCounted(1, 'entry', 'entries')).toBe('1 entry');
    expect(formatCounted(2, 'entry', 'entries')).toBe('2 entries');
  });
});

describe('float noise stays out of the summary CSV and the limitations', () => {
  const reference = makeRun({ metrics: { rate: 0.7, len: 0.1 } });
  const candidate = makeRun({
    runId: 'run-cand',
    conditionName: 'cand',
    metrics: { rate: 0.9, len: 0.3 },
    examples: [makeExample('a')],
  });
  const comparison = compareRuns(makeExperiment(), reference, candidate, { resamples: 100 });

  it('writes 0.2, not 0.20000000000000018, for 0.9 − 0.7', () => {
    expect(0.9 - 0.7).not.toBe(0.2);
    const report = { experiment: { id: 'e' }, comparisons: [comparison] } as unknown as Report;
    const rows = summaryCsvRows(report).map((r) =>
      Object.fromEntries(SUMMARY_CSV_HEADER.map((h, i) => [h, r[i]])),
    );
    expect(rows.find((r) => r.metric === 'rate')!.reported_difference).toBe(0.2);
    expect(comparison.limitations.join(' ')).toContain('(+0.2)');
    expect(comparison.limitations.join(' ')).not.toContain('0.20000000000000018');
  });
});

describe('power hints', () => {
  const paired = (over: Record<string, unknown>) =>
    ({
      name: 'm',
      paired: { n: 40, sd: 0.3, mde: 0.1345, n_for_observed: null, difference: 0.05, ...over },
    }) as unknown as MetricComparison;

  it('never says ±0.000 when every difference is 0', () => {
    const text = powerSentence(paired({ sd: 0, mde: 0, difference: 0 }))!;
    expect(text).toBe(
      'All 40 paired differences are equal (0): there is no spread to estimate power from.',
    );
    expect(text).not.toMatch(/±0/);
  });

  it('gives the detectable difference to significant digits', () => {
    expect(powerSentence(paired({}))).toBe(
      'With n = 40, differences smaller than about ±0.135 are hard to detect (80 % power, α = 0.05).',
    );
  });
});
