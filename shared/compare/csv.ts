/**
 * Rows for the two CSV exports (COMPARISON.md §7). This module only builds header and row
 * arrays; writing them (RFC 4180 quoting, UTF-8) is the exporter's job with csv-stringify.
 * Text cells that a spreadsheet would run as a formula get a leading single quote; numbers stay
 * numbers; booleans are written as the words true/false; null and absent values as empty cells.
 */

import type { JsonValue } from '../model';
import { canonicalJson } from './canonical';
import { classifyExample, criterionRules } from './criteria';
import { behaviorChanged, outputChanged, pairExamples } from './pairing';
import type { CompareExperiment, CompareRun, CriterionClass, Report } from './types';

export type CsvCell = string | number;

export const EXAMPLE_CSV_HEADER = [
  'experiment_id',
  'reference_condition',
  'reference_run_id',
  'candidate_condition',
  'candidate_run_id',
  'example_id',
  'input',
  'reference_output',
  'candidate_output',
  'criterion',
  'reference_value',
  'candidate_value',
  'change',
  'output_changed',
  'behavior_changed',
];

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
];

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that cannot start a spreadsheet formula. */
export function textCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A JSON value as a cell: numbers as numbers, everything else as safe text. */
export function valueCell(value: JsonValue | undefined): CsvCell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return textCell(value);
  return textCell(canonicalJson(value));
}

/** One paired example under one criterion, before it becomes a row (for filtering). */
export interface ExampleCsvRecord {
  exampleId: string;
  criterion: string;
  change: CriterionClass;
  outputChanged: boolean;
  behaviorChanged: boolean;
}

/**
 * One row per paired example and criterion, by example id then criterion; `filter` keeps the
 * rows of the current view (all rows without it). `input` is the reference run's text (an
 * input mismatch shows in the comparison's coverage, not here).
 */
export function exampleCsvRows(
  experiment: CompareExperiment,
  reference: CompareRun,
  candidate: CompareRun,
  filter?: (record: ExampleCsvRecord) => boolean,
): CsvCell[][] {
  const pairing = pairExamples(reference, candidate);
  const rules = criterionRules(reference, candidate);
  const rows: CsvCell[][] = [];
  for (let k = 0; k < pairing.matched.length; k++) {
    const id = pairing.matched[k]!;
    const a = pairing.matchedReference[k]!;
    const b = pairing.matchedCandidate[k]!;
    const output = outputChanged(a, b);
    const behavior = behaviorChanged(a, b);
    for (const rule of rules) {
      const record: ExampleCsvRecord = {
        exampleId: id,
        criterion: rule.field,
        change: classifyExample(rule, a, b),
        outputChanged: output,
        behaviorChanged: behavior,
      };
      if (filter && !filter(record)) continue;
      rows.push([
        textCell(experiment.id),
        textCell(reference.conditionName),
        textCell(reference.runId),
        textCell(candidate.conditionName),
        textCell(candidate.runId),
        textCell(id),
        textCell(a.input),
        textCell(a.output),
        textCell(b.output),
        textCell(rule.field),
        valueCell(a.fields[rule.field]),
        valueCell(b.fields[rule.field]),
        record.change,
        output ? 'true' : 'false',
        behavior ? 'true' : 'false',
      ]);
    }
  }
  return rows;
}

function numberCell(value: number | null | undefined): CsvCell {
  return value === null || value === undefined ? '' : value;
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
      valueCell(m.reported.reference),
      valueCell(m.reported.candidate),
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
    ]),
  );
}
