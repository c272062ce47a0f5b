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
import { CLASSES, FLAG } from '../compare/codes';
import { filterMatches } from '../compare/filters';
import { idAt } from '../compare/pair-arrays';
import { openPair } from '../compare/pair-cache';
import type { Db } from '../db/open';
import type { TextRow } from '../texts/blocks';
import { runOfKey } from '../texts/keys';
import { TextReader } from '../texts/read';
import { requireTexts } from '../texts/unavailable';

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

export function toCsv(header: string[], rows: CsvCell[][]): string {
  const safe = rows.map((row) => row.map((cell, i) => safeCell(cell, header[i] ?? '')));
  // csv-stringify quotes a cell holding the whole record delimiter (CRLF) but not a lone CR or
  // LF, which every reader takes as the end of the row: multi-line outputs would split rows, and
  // a line that starts with `=` would reach a spreadsheet as a formula.
  return BOM + stringify([header, ...safe], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}

export function summaryCsv(report: Report): string {
  return toCsv(SUMMARY_CSV_HEADER, summaryCsvRows(report));
}

/** Examples read this many keys at a time: a page's worth, never a whole pair at once. */
const BATCH = 500;

/** The texts behind a batch of keys: the reader keeps the blocks a pair's rows walk through. */
function examplesByKey(reader: TextReader, keys: number[]): Map<number, TextRow> {
  return reader.texts(keys);
}

export interface ExamplesCsv {
  content: string;
  /** Paired examples written: one row each. */
  examples: number;
}

/**
 * One row per paired example with every criterion as columns, for every pair of the report or
 * one pair, optionally narrowed by the explorer's current filter (the pager's own), by example id.
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
    const view = openPair(db, reportKey, pair);
    const { matches } = filterMatches(db, view, { ...(options.filter ?? {}), side: 'both' });
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
      criteria: view.criteria,
      // Rows are built once every pair's criteria are known, so the columns line up.
      rows: (columns) => {
        const rows: CsvCell[][] = [];
        // Positions follow the example ids, the file's order.
        const page: number[] = [];
        const reader = new TextReader(db);
        const flush = () => {
          const examples = examplesByKey(reader, [
            ...page.map((k) => view.refRowids[k]!),
            ...page.map((k) => view.candRowids[k]!),
          ]);
          for (const k of page) {
            const ref = examples.get(view.refRowids[k]!);
            const cand = examples.get(view.candRowids[k]!);
            // An example deleted since the comparison was saved has nothing to write.
            if (!ref || !cand) continue;
            requireTexts(db, runOfKey(view.refRowids[k]!), ref);
            requireTexts(db, runOfKey(view.candRowids[k]!), cand);
            const cells: Record<string, CriterionCells> = {};
            view.criteria.forEach((field, c) => {
              cells[field] = {
                reference: ref.fields[field],
                candidate: cand.fields[field],
                change: CLASSES[view.classes[c]![k]!]!,
              };
            });
            const flags = view.flags[k]!;
            rows.push(
              exampleCsvRow(csvPair, columns, {
                exampleId: idAt(view, k),
                input: ref.input,
                referenceOutput: ref.output,
                candidateOutput: cand.output,
                outputChanged: (flags & FLAG.outputChanged) !== 0,
                behaviorChanged: (flags & FLAG.behaviorChanged) !== 0,
                criteria: cells,
              }),
            );
          }
          page.length = 0;
        };
        for (let k = 0; k < view.rows; k++) {
          if (matches && !matches[k]) continue;
          page.push(k);
          if (page.length === BATCH) flush();
        }
        flush();
        return rows;
      },
    });
  });
  const columns = [...new Set(written.flatMap((w) => w.criteria))].sort(compareStrings);
  const rows = written.flatMap((w) => w.rows(columns));
  return { content: toCsv(exampleCsvHeader(columns), rows), examples: rows.length };
}
