import { stringify } from 'csv-stringify/sync';
import {
  exampleCsvHeader,
  exampleCsvRow,
  SUMMARY_CSV_HEADER,
  summaryCsvRows,
  type CriterionCells,
  type CsvCell,
} from '../../../shared/compare/csv';
import { compareStrings } from '../../../shared/compare/canonical';
import type { Report } from '../../../shared/compare/types';
import type { ParsedInput } from '../../../shared/contract';
import type { CriterionClass } from '../../../shared/compare/types';
import type { JsonValue } from '../../../shared/model';
import { STORED_CLASSES } from '../compare/counts';
import { pairScope, whereClause } from '../compare/filters';
import type { Db } from '../db/open';

/** Columns that name something (ids, conditions): what a reader matches by eye. */
const NAME_COLUMNS = new Set([
  'experiment_id',
  'reference_condition',
  'reference_run_id',
  'candidate_condition',
  'candidate_run_id',
  'example_id',
  'metric',
  'criterion',
]);

// Bidi marks, embeddings, overrides and isolates, and zero-width characters: in a name they
// make two different ids look the same (`safe\u202egnp.exe` shows as "safeexe.png").
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

function visibleName(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Spreadsheets skip line breaks and spaces before a formula, so `\n=cmd()` runs as one too.
const HIDDEN_FORMULA = /^\s+[=+\-@]/;

function safeCell(cell: CsvCell, column: string): CsvCell {
  if (typeof cell !== 'string') return cell;
  const text = NAME_COLUMNS.has(column) ? visibleName(cell) : cell;
  return HIDDEN_FORMULA.test(text) ? `'${text}` : text;
}

/** Excel reads a UTF-8 file as its legacy code page unless it starts with a byte order mark. */
const BOM = '\uFEFF';

function toCsv(header: string[], rows: CsvCell[][]): string {
  const safe = rows.map((row) => row.map((cell, i) => safeCell(cell, header[i] ?? '')));
  // csv-stringify quotes a cell holding the whole record delimiter (CRLF) but not a lone CR or
  // LF, which every reader takes as the end of the row: multi-line outputs would split rows, and
  // a line that starts with `=` would reach a spreadsheet as a formula.
  return BOM + stringify([header, ...safe], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}

export function summaryCsv(report: Report): string {
  return toCsv(SUMMARY_CSV_HEADER, summaryCsvRows(report));
}

interface PairedExampleRow {
  example_id: string;
  /** The example's class rows as a JSON object; criteria missing from it are unchanged. */
  classes: string | null;
  output_changed: number;
  behavior_changed: number;
  ref_input: string;
  ref_output: string;
  cand_output: string;
  ref_fields: string;
  cand_fields: string;
}

export interface ExamplesCsv {
  content: string;
  /** Paired examples written: one row each. */
  examples: number;
}

/**
 * One row per paired example with every criterion as columns, for every pair of the report or
 * one pair, optionally narrowed by the explorer's current filter (same SQL as the pager).
 * Criteria are the union over the pairs written, sorted; a pair without one leaves it empty.
 */
export function examplesCsv(
  db: Db,
  reportKey: string,
  report: Report,
  options: { pair?: number; filter?: ParsedInput<'examples:page'>['filter'] } = {},
): ExamplesCsv {
  const written: { criteria: string[]; rows: (criteria: string[]) => CsvCell[][] }[] = [];
  report.comparisons.forEach((comparison, pair) => {
    if (options.pair !== undefined && options.pair !== pair) return;
    const scope = pairScope(db, reportKey, pair);
    if (!scope) return;
    const where = whereClause(db, scope, { ...(options.filter ?? {}), side: 'both' }, 'count');
    const criteria = scope.criteria.map(() => '?').join(',');
    const stored = STORED_CLASSES.map((c) => `'${c}'`).join(',');
    const select = db.prepare(
      `SELECT pr.example_id, pr.output_changed, pr.behavior_changed,
              (SELECT json_group_object(pc.criterion, pc.class) FROM pair_classes pc
               WHERE pc.report_id = pr.report_id AND pc.pair = pr.pair AND pc.criterion IN (${criteria})
                 AND pc.class IN (${stored}) AND pc.example_id = pr.example_id) AS classes,
              re.input AS ref_input, re.output AS ref_output, ce.output AS cand_output,
              re.fields AS ref_fields, ce.fields AS cand_fields
       FROM pair_rows pr
       JOIN examples re ON re.rowid = pr.ref_rowid
       JOIN examples ce ON ce.rowid = pr.cand_rowid
       WHERE ${where.sql} ORDER BY pr.example_id`,
    );
    const csvPair = {
      experimentId: report.experiment.id,
      reference: {
        condition: comparison.reference.condition,
        runId: comparison.reference.run_id,
      },
      candidate: {
        condition: comparison.candidate.condition,
        runId: comparison.candidate.run_id,
      },
    };
    written.push({
      criteria: scope.criteria,
      // Rows are built once every pair's criteria are known, so the columns line up.
      rows: (columns) => {
        const rows: CsvCell[][] = [];
        for (const r of select.iterate(
          ...scope.criteria,
          ...where.params,
        ) as Iterable<PairedExampleRow>) {
          const stored = r.classes ? (JSON.parse(r.classes) as Record<string, CriterionClass>) : {};
          const refFields = JSON.parse(r.ref_fields) as Record<string, JsonValue>;
          const candFields = JSON.parse(r.cand_fields) as Record<string, JsonValue>;
          const cells: Record<string, CriterionCells> = {};
          for (const field of scope.criteria) {
            cells[field] = {
              reference: refFields[field],
              candidate: candFields[field],
              change: stored[field] ?? 'unchanged',
            };
          }
          rows.push(
            exampleCsvRow(csvPair, columns, {
              exampleId: r.example_id,
              input: r.ref_input,
              referenceOutput: r.ref_output,
              candidateOutput: r.cand_output,
              outputChanged: r.output_changed === 1,
              behaviorChanged: r.behavior_changed === 1,
              criteria: cells,
            }),
          );
        }
        return rows;
      },
    });
  });
  const columns = [...new Set(written.flatMap((w) => w.criteria))].sort(compareStrings);
  const rows = written.flatMap((w) => w.rows(columns));
  return { content: toCsv(exampleCsvHeader(columns), rows), examples: rows.length };
}
