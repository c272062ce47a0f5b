import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_CSV_BASE_HEADER,
  exampleCsvRows,
  fitCell,
  MAX_CELL_CHARS,
  SUMMARY_CSV_HEADER,
  summaryCsvRows,
  textCell,
  valueCell,
} from '../../../shared/compare/csv';
import { candidateLimitations, protocolSummary } from '../../../shared/compare/finding';
import { buildExperimentReport } from '../../../shared/compare/report';
import {
  EXP2_EXPERIMENT,
  exp2Runs,
  makeExample,
  makeExperiment,
  makeRun,
} from '../../fixtures/compare';

describe('CSV cells', () => {
  it.each(['=SUM(A1)', '+1', '-2', '@cmd', '\tx', '\rx'])('neutralises the formula %j', (text) => {
    expect(textCell(text)).toBe(`'${text}`);
  });

  it('leaves ordinary text, numbers and negative numbers alone', () => {
    expect(textCell('plain = text')).toBe('plain = text');
    expect(valueCell(-2)).toBe(-2);
    expect(valueCell(0.5)).toBe(0.5);
    expect(valueCell('-2')).toBe("'-2");
    expect(valueCell(true)).toBe('true');
    expect(valueCell(null)).toBe('');
    expect(valueCell({ b: 1, a: [2] })).toBe('{"a":[2],"b":1}');
  });
});

describe('exampleCsvRows', () => {
  const reference = makeRun({
    metricDefinitions: { score: { example_field: 'score', direction: 'higher_is_better' } },
    examples: [
      makeExample('b', { score: 2, note: 'ok' }),
      makeExample('a', { score: 3 }, { input: '=HYPERLINK("x")' }),
      makeExample('c', { score: 1 }),
    ],
  });
  const candidate = makeRun({
    runId: 'run-cand',
    conditionName: 'cand',
    metricDefinitions: reference.metricDefinitions,
    examples: [
      makeExample('a', { score: 1 }, { input: '=HYPERLINK("x")', output: '-negative' }),
      makeExample('b', { score: 4, note: 'ok' }),
    ],
  });

  it('writes one row per paired example, in id order, with each criterion as three columns', () => {
    const { header, rows } = exampleCsvRows(makeExperiment(), reference, candidate);
    expect(header).toEqual([
      ...EXAMPLE_CSV_BASE_HEADER,
      'note.reference',
      'note.candidate',
      'note.change',
      'score.reference',
      'score.candidate',
      'score.change',
    ]);
    expect(rows).toEqual([
      [
        'exp-test',
        'reference',
        'run-ref',
        'cand',
        'run-cand',
        'a',
        `'=HYPERLINK("x")`,
        'Answer a',
        "'-negative",
        'true',
        'true',
        '',
        '',
        'not_comparable',
        3,
        1,
        'regressed',
      ],
      [
        'exp-test',
        'reference',
        'run-ref',
        'cand',
        'run-cand',
        'b',
        'Prompt b',
        'Answer b',
        'Answer b',
        'false',
        'true',
        'ok',
        'ok',
        'unchanged',
        2,
        4,
        'improved',
      ],
    ]);
  });

  it('keeps only the rows of the current filter', () => {
    const { rows } = exampleCsvRows(
      makeExperiment(),
      reference,
      candidate,
      (r) => r.criteria.score?.change === 'regressed',
    );
    expect(rows.map((r) => r[5])).toEqual(['a']);
  });
});

describe('cells longer than a spreadsheet takes', () => {
  it('cuts a cell at 32,767 characters with a marker that gives the full length', () => {
    const long = 'x'.repeat(36_512);
    const cut = fitCell(long);
    expect(cut).toHaveLength(MAX_CELL_CHARS);
    expect(cut).toMatch(/ … \[cut: 36,512 characters in full; see Pairwise\]$/);
    expect(fitCell('short')).toBe('short');
    expect(fitCell('y'.repeat(MAX_CELL_CHARS))).toHaveLength(MAX_CELL_CHARS);
  });

  it('never ends a cut cell on half a character', () => {
    const cut = fitCell('😀'.repeat(20_000));
    expect(cut.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
    expect(/[\uD800-\uDBFF]$/.test(cut.slice(0, cut.indexOf(' … [cut')))).toBe(false);
  });

  it('cuts through textCell too, so an example output cannot break Excel', () => {
    expect(textCell('=' + 'a'.repeat(40_000))).toHaveLength(MAX_CELL_CHARS);
  });
});

describe('summary CSV, protocol and limitations', () => {
  const runs = exp2Runs();
  const report = buildExperimentReport(EXP2_EXPERIMENT, runs, { resamples: 500 });

  it('writes one summary row per comparison and metric', () => {
    const rows = summaryCsvRows(report);
    expect(rows).toHaveLength(3);
    const first = Object.fromEntries(SUMMARY_CSV_HEADER.map((h, i) => [h, rows[0]![i]]));
    expect(first).toMatchObject({
      candidate_condition: 'ablate-random-direction',
      metric: 'refusal_rate',
      example_field: 'refused',
      reported_reference: 0.95,
      reported_candidate: 0.9,
      paired_n: 20,
      resamples: 500,
      method: 'Tango score interval (two-valued outcomes)',
      expect: 'no_effect',
      small_n: 'false',
    });
    expect(typeof first.ci_low).toBe('number');
    expect(first.seed).toMatch(/^[0-9a-f]{64}$/);
  });

  it('summarises the protocol from the runs', () => {
    const protocol = protocolSummary(EXP2_EXPERIMENT, runs, report);
    expect(protocol).toMatchObject({
      question: 'Does ablating a single refusal direction remove refusals?',
      reference: 'reference',
      model: {
        id: 'google/gemma-2-2b-it',
        revision: '299a8560bedf22ed1c72a8a11e7dce4a7f9f51f8',
        consistent: false,
      },
      dataset: {
        id: 'policy-sensitive-instructions',
        revision: 'v2',
        split: 'test',
        consistent: false,
      },
      seed: 7,
      checker_version: '1',
    });
    expect(protocol.conditions.map((c) => [c.name, c.role, c.n])).toEqual([
      ['ablate-random-direction', 'control', 20],
      ['ablate-refusal-direction', 'intervention', 21],
      ['reference', 'reference', 20],
    ]);
    expect(protocol.conditions[1]!.intervention).toMatchObject({
      direction: 'refusal_dim_mean_diff',
    });
  });

  it('collects candidate limitations once, deviations first, each tied to its pair', () => {
    const limitations = candidateLimitations(EXP2_EXPERIMENT, report);
    expect(limitations.slice(0, 2)).toEqual([
      "Declared deviation: Gemma-2-2B-IT instead of the paper's Llama-3 8B Instruct.",
      "Declared deviation: 20 prompts instead of the paper's 100.",
    ]);
    expect(limitations).toContain(
      'ablate-refusal-direction vs reference: dataset.split differs (reference: "test", ' +
        'candidate: "validation"): the runs differ in what was evaluated.',
    );
    expect(new Set(limitations).size).toBe(limitations.length);
  });
});
