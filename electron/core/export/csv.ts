import { stringify } from 'csv-stringify/sync';
import {
  EXAMPLE_CSV_HEADER,
  SUMMARY_CSV_HEADER,
  summaryCsvRows,
  textCell,
  valueCell,
  type CsvCell,
} from '../../../shared/compare/csv';
import type { Report } from '../../../shared/compare/types';
import type { ParsedInput } from '../../../shared/contract';
import type { JsonValue } from '../../../shared/model';
import { whereClause } from '../compare/pager';
import type { Db } from '../db/open';

function toCsv(header: string[], rows: CsvCell[][]): string {
  // csv-stringify quotes a cell holding the whole record delimiter (CRLF) but not a lone CR or
  // LF, which every reader takes as the end of the row: multi-line outputs would split rows, and
  // a line that starts with `=` would reach a spreadsheet as a formula.
  return stringify([header, ...rows], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}

export function summaryCsv(report: Report): string {
  return toCsv(SUMMARY_CSV_HEADER, summaryCsvRows(report));
}

interface PairedExampleRow {
  example_id: string;
  classes: string;
  output_changed: number;
  behavior_changed: number;
  ref_input: string;
  ref_output: string;
  cand_output: string;
  ref_fields: string;
  cand_fields: string;
}

/**
 * COMPARISON.md §7: one row per paired example and criterion, for every pair of the report or
 * one pair, optionally narrowed by the explorer's current filter (same SQL as the pager).
 */
export function examplesCsv(
  db: Db,
  reportKey: string,
  report: Report,
  options: { pair?: number; filter?: ParsedInput<'examples:page'>['filter'] } = {},
): string {
  const rows: CsvCell[][] = [];
  report.comparisons.forEach((comparison, pair) => {
    if (options.pair !== undefined && options.pair !== pair) return;
    const where = whereClause({
      reportKey,
      pair,
      filter: { ...(options.filter ?? {}), side: 'both' },
    });
    const select = db.prepare(
      `SELECT pr.example_id, pr.classes, pr.output_changed, pr.behavior_changed,
              re.input AS ref_input, re.output AS ref_output, ce.output AS cand_output,
              re.fields AS ref_fields, ce.fields AS cand_fields
       FROM pair_rows pr
       JOIN examples re ON re.rowid = pr.ref_rowid
       JOIN examples ce ON ce.rowid = pr.cand_rowid
       WHERE ${where.sql} ORDER BY pr.example_id`,
    );
    const criterion = options.filter?.changeClass ? options.filter.criterion : undefined;
    for (const r of select.iterate(...where.params) as Iterable<PairedExampleRow>) {
      const classes = JSON.parse(r.classes) as Record<string, string>;
      const refFields = JSON.parse(r.ref_fields) as Record<string, JsonValue>;
      const candFields = JSON.parse(r.cand_fields) as Record<string, JsonValue>;
      for (const field of Object.keys(classes).sort()) {
        if (criterion && field !== criterion) continue;
        if (options.filter?.changeClass && classes[field] !== options.filter.changeClass) continue;
        rows.push([
          textCell(report.experiment.id),
          textCell(comparison.reference.condition),
          textCell(comparison.reference.run_id),
          textCell(comparison.candidate.condition),
          textCell(comparison.candidate.run_id),
          textCell(r.example_id),
          textCell(r.ref_input),
          textCell(r.ref_output),
          textCell(r.cand_output),
          textCell(field),
          valueCell(refFields[field]),
          valueCell(candFields[field]),
          classes[field]!,
          r.output_changed ? 'true' : 'false',
          r.behavior_changed ? 'true' : 'false',
        ]);
      }
    }
  });
  return toCsv(EXAMPLE_CSV_HEADER, rows);
}
