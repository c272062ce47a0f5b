/**
 * Rows for the two CSV exports (docs/comparison.md, "The report and the CSVs"). This module only
 * builds header and row arrays; writing them (RFC 4180 quoting, UTF-8) is the exporter's job with
 * csv-stringify. Text cells that a spreadsheet would run as a formula get a leading single quote;
 * numbers stay numbers; booleans are written as the words true/false; null and absent values as
 * empty cells.
 */

import { csvNumber } from '../format';
import type { JsonValue } from '../model';
import { canonicalJson, compareStrings } from './canonical';
import { classifyExample, criterionRules, type CriterionRule } from './criteria';
import { behaviorChanged, outputChanged, pairExamples } from './pairing';
import type {
  CompareExample,
  CompareExperiment,
  CompareRun,
  CriterionClass,
  Report,
} from './types';

export type CsvCell = string | number;

/**
 * The examples CSV: one row per paired example; each criterion adds three columns after these
 * (`<criterion>.reference`, `<criterion>.candidate`, `<criterion>.change`), criteria sorted.
 */
export const EXAMPLE_CSV_BASE_HEADER = [
  'experiment_id',
  'reference_condition',
  'reference_run_id',
  'candidate_condition',
  'candidate_run_id',
  'example_id',
  'input',
  'reference_output',
  'candidate_output',
  'output_changed',
  'behavior_changed',
];

export function exampleCsvHeader(criteria: readonly string[]): string[] {
  return [
    ...EXAMPLE_CSV_BASE_HEADER,
    // Criterion names come from the run files: a header cell is as guarded as any other.
    ...criteria.flatMap((c) => [
      textCell(`${c}.reference`),
      textCell(`${c}.candidate`),
      textCell(`${c}.change`),
    ]),
  ];
}

export const SUMMARY_CSV_HEADER = [
  'experiment_id',
  'reference_condition',
  'reference_run_id',
  'candidate_condition',
  'candidate_run_id',
  'metric',
  'example_field',
  'reported_reference',
  'reported_candidate',
  'reported_difference',
  'paired_n',
  'paired_difference',
  'ci_low',
  'ci_high',
  'resamples',
  'seed',
  'method',
  'p_value',
  'p_holm',
  'expect',
  'verdict',
  'p_method',
  'small_n',
  'not_comparable',
];

const FORMULA_START = /^[=+\-@\t\r]/;

/** Excel's limit on the characters of one cell; a longer cell is cut there, never split. */
export const MAX_CELL_CHARS = 32_767;

function cutMarker(length: number): string {
  return ` … [cut: ${length.toLocaleString('en-US')} characters in full; see Pairwise]`;
}

/** A text no longer than Excel takes, ending with a marker that says it was cut and how long it is. */
export function fitCell(text: string): string {
  if (text.length <= MAX_CELL_CHARS) return text;
  const marker = cutMarker(text.length);
  let end = MAX_CELL_CHARS - marker.length;
  // Never end on the first half of a surrogate pair: it would be an invalid character.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}${marker}`;
}

/** A text cell that cannot start a spreadsheet formula and fits in a spreadsheet cell. */
export function textCell(text: string): string {
  return fitCell(FORMULA_START.test(text) ? `'${text}` : text);
}

/** A JSON value as a cell: numbers as numbers, everything else as safe text. */
export function valueCell(value: JsonValue | undefined): CsvCell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return textCell(value);
  return textCell(canonicalJson(value));
}

/** One criterion of one paired example. */
export interface CriterionCells {
  reference: JsonValue | undefined;
  candidate: JsonValue | undefined;
  change: CriterionClass;
}

/** One paired example before it becomes a row (for filtering). */
export interface ExampleCsvRecord {
  exampleId: string;
  input: string;
  referenceOutput: string;
  candidateOutput: string;
  outputChanged: boolean;
  behaviorChanged: boolean;
  criteria: Record<string, CriterionCells>;
}

export interface CsvPair {
  experimentId: string;
  reference: { condition: string; runId: string };
  candidate: { condition: string; runId: string };
}

/** A criterion the pair does not have gives three empty cells. */
export function exampleCsvRow(
  pair: CsvPair,
  criteria: readonly string[],
  record: ExampleCsvRecord,
): CsvCell[] {
  return [
    textCell(pair.experimentId),
    textCell(pair.reference.condition),
    textCell(pair.reference.runId),
    textCell(pair.candidate.condition),
    textCell(pair.candidate.runId),
    textCell(record.exampleId),
    textCell(record.input),
    textCell(record.referenceOutput),
    textCell(record.candidateOutput),
    record.outputChanged ? 'true' : 'false',
    record.behaviorChanged ? 'true' : 'false',
    ...criteria.flatMap((c) => {
      const cells = record.criteria[c];
      return cells
        ? [valueCell(cells.reference), valueCell(cells.candidate), cells.change]
        : ['', '', ''];
    }),
  ];
}

/**
 * One matched example as a CSV record. The texts come apart from the examples: the engines
 * compare hashes and read the texts themselves (the DuckDB engine from the export).
 */
export function exampleCsvRecord(
  exampleId: string,
  texts: Pick<ExampleCsvRecord, 'input' | 'referenceOutput' | 'candidateOutput'>,
  a: CompareExample,
  b: CompareExample,
  rules: CriterionRule[],
): ExampleCsvRecord {
  return {
    exampleId,
    ...texts,
    outputChanged: outputChanged(a, b),
    behaviorChanged: behaviorChanged(a, b),
    criteria: Object.fromEntries(
      rules.map((rule) => [
        rule.field,
        {
          reference: a.fields[rule.field],
          candidate: b.fields[rule.field],
          change: classifyExample(rule, a, b),
        },
      ]),
    ),
  };
}

/**
 * The header and one row per paired example, by example id; `filter` keeps the rows of the
 * current view (all rows without it). `input` is the reference run's text (an input mismatch
 * shows in the comparison's coverage, not here).
 */
export function exampleCsvRows(
  experiment: CompareExperiment,
  reference: CompareRun,
  candidate: CompareRun,
  filter?: (record: ExampleCsvRecord) => boolean,
): { header: string[]; rows: CsvCell[][] } {
  const pairing = pairExamples(reference, candidate);
  const rules = criterionRules(reference, candidate);
  const criteria = rules.map((r) => r.field).sort(compareStrings);
  const pair: CsvPair = {
    experimentId: experiment.id,
    reference: { condition: reference.conditionName, runId: reference.runId },
    candidate: { condition: candidate.conditionName, runId: candidate.runId },
  };
  const rows: CsvCell[][] = [];
  for (let k = 0; k < pairing.matched.length; k++) {
    const a = pairing.matchedReference[k]!;
    const b = pairing.matchedCandidate[k]!;
    const record = exampleCsvRecord(
      pairing.matched[k]!,
      { input: a.input, referenceOutput: a.output, candidateOutput: b.output },
      a,
      b,
      rules,
    );
    if (filter && !filter(record)) continue;
    rows.push(exampleCsvRow(pair, criteria, record));
  }
  return { header: exampleCsvHeader(criteria), rows };
}

/** Summary numbers to significant digits: 0.20000000000000018 is float noise, not data. */
function numberCell(value: number | null | undefined): CsvCell {
  return value === null || value === undefined ? '' : csvNumber(value);
}

function reportedCell(value: JsonValue): CsvCell {
  return typeof value === 'number' ? numberCell(value) : valueCell(value);
}

/** One row per comparison and metric of a report. */
export function summaryCsvRows(report: Report): CsvCell[][] {
  return report.comparisons.flatMap((c) =>
    c.metrics.map((m) => [
      textCell(report.experiment.id),
      textCell(c.reference.condition),
      textCell(c.reference.run_id),
      textCell(c.candidate.condition),
      textCell(c.candidate.run_id),
      textCell(m.name),
      m.example_field === null ? '' : textCell(m.example_field),
      reportedCell(m.reported.reference),
      reportedCell(m.reported.candidate),
      numberCell(m.reported.difference),
      numberCell(m.paired?.n),
      numberCell(m.paired?.difference),
      numberCell(m.paired?.ci95?.[0]),
      numberCell(m.paired?.ci95?.[1]),
      numberCell(m.paired?.resamples),
      m.paired ? m.paired.seed : '',
      m.paired ? m.paired.method : '',
      numberCell(m.paired?.p_value),
      numberCell(m.paired?.p_holm),
      m.expect ?? '',
      m.verdict ?? '',
      m.paired?.p_method ?? '',
      m.paired ? String(m.paired.small_n) : '',
      textCell(m.not_comparable.join('; ')),
    ]),
  );
}
