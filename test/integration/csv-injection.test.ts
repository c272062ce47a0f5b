import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import { parseCsv } from '../../electron/core/ingest/importers/csv-rows';
import { csvValue } from '../../electron/core/ingest/importers/generic';
import { exampleCsvHeader, SUMMARY_CSV_HEADER } from '../../shared/compare/csv';
import { runCli } from '../fixtures/cli';
import { writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';
import { tempDir } from '../fixtures/tmp';
import { cleanupsAfterEach } from '../fixtures/cleanups';

/**
 * The CSV exports (docs/comparison.md, "The report and the CSVs") against hostile data: every text
 * cell that a spreadsheet would run as a formula starts with a single quote, numbers stay numbers,
 * and no cell's line break can split a row (which would put the rest of a cell at the start of a
 * new row, unescaped).
 */

const FORMULA = /^[=+\-@\t\r]|^\s+[=+\-@]/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const IDS = [
  '=1+1',
  '+1',
  '-1',
  '@A1',
  '\tTAB',
  '\rCR',
  'plain',
  '=HYPERLINK("http://evil.example","x")',
  'two\n=lines',
  'cr\r=inside',
];

const cleanups = cleanupsAfterEach();

function library(dir: string): string {
  const lib = path.join(dir, 'lib');
  const examplesFor = (candidate: boolean) =>
    IDS.map((id, k) => ({
      id,
      input: `=cmd|' /C calc'!A${k}\n@SUM(1)`,
      output: candidate ? `+${k} changed\r\n-next line` : `-${k} same`,
      fields: { score: candidate ? -k : k - 1.5, '@label': candidate ? '=evil' : '-ok' },
    }));
  const metrics = (value: number) => ({
    metrics: { '=m': value },
    metric_definitions: { '=m': { example_field: 'score', direction: 'higher_is_better' } },
  });
  writeMechlensRun(lib, {
    id: '+run-ref',
    name: '=reference()',
    experiment: { id: '@exp', role: 'reference' },
    examples: examplesFor(false),
    extra: metrics(-0.5),
  });
  writeMechlensRun(lib, {
    id: '-run-int',
    name: '-2+3',
    experiment: { id: '@exp', role: 'intervention' },
    examples: examplesFor(true),
    extra: metrics(0.25),
  });
  return lib;
}

/** Parses an export and checks every cell; returns the rows as header → cell records. */
function checkCsv(content: string, header: string[], valueColumns: string[]) {
  // Excel needs the byte order mark to read UTF-8; it is not part of the first cell.
  expect(content.startsWith('\uFEFF')).toBe(true);
  const rows = parseCsv(content.slice(1)).map((r) => r.cells);
  expect(rows[0]).toEqual(header);
  const records = rows.slice(1).map((cells) => {
    // A split row would come back short or long.
    expect(cells).toHaveLength(header.length);
    return Object.fromEntries(header.map((name, i) => [name, cells[i]!]));
  });
  for (const record of records) {
    for (const [column, cell] of Object.entries(record)) {
      if (valueColumns.includes(column) && NUMBER.test(cell)) continue;
      expect(cell, `${column}: ${JSON.stringify(cell)}`).not.toMatch(FORMULA);
    }
  }
  return records;
}

/** What a cell must hold for a text value: the text, after a quote if it could be a formula. */
const escaped = (text: string) => (FORMULA.test(text) ? `'${text}` : text);

const EXAMPLE_HEADER = exampleCsvHeader(['@label', 'score']);
const SCORES = ['score.reference', 'score.candidate'];

function checkExamples(content: string): void {
  const records = checkCsv(content, EXAMPLE_HEADER, SCORES);
  // One row per paired example, every criterion in its own columns.
  expect(records).toHaveLength(IDS.length);
  expect(new Set(records.map((r) => r.example_id))).toEqual(new Set(IDS.map(escaped)));
  for (const r of records) {
    expect(r.experiment_id).toBe("'@exp");
    expect(r.reference_condition).toBe("'=reference()");
    expect(r.candidate_condition).toBe("'-2+3");
    expect(r.reference_run_id).toBe("'+run-ref");
    expect(r.candidate_run_id).toBe("'-run-int");
    const id = r.example_id!;
    const k = IDS.indexOf(id.startsWith("'") && FORMULA.test(id.slice(1)) ? id.slice(1) : id);
    expect(k, id).toBeGreaterThanOrEqual(0);
    expect(r.input).toBe(`'=cmd|' /C calc'!A${k}\n@SUM(1)`);
    expect(r.candidate_output).toBe(`'+${k} changed\r\n-next line`);
    // Numbers stay numbers, negative ones included.
    expect(csvValue(r['score.reference']!)).toBe(k - 1.5);
    expect(csvValue(r['score.candidate']!)).toBe(-k || 0);
    expect([r["'@label.reference"], r["'@label.candidate"]]).toEqual(["'-ok", "'=evil"]);
  }
}

describe('CSV exports of hostile data', () => {
  it('quotes formula-leading cells and keeps rows whole: CLI compare --format csv and summary-csv', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const db = path.join(t.dir, 'p.db');
    expect(runCli(['index', library(t.dir), '--db', db]).status).toBe(0);
    // Printed to a terminal a lone CR is shown as an escape, so the exact bytes go to --out.
    const file = path.join(t.dir, 'examples.csv');
    const csv = runCli([
      'compare',
      '--db',
      db,
      '--format',
      'csv',
      '--resamples',
      '200',
      '--out',
      file,
    ]);
    expect(csv.status, csv.stderr).toBe(0);
    checkExamples(fs.readFileSync(file, 'utf8'));
    const summary = runCli([
      'compare',
      '--db',
      db,
      '--format',
      'summary-csv',
      '--resamples',
      '200',
    ]);
    expect(summary.status, summary.stderr).toBe(0);
    const records = checkCsv(summary.stdout, SUMMARY_CSV_HEADER, [
      'reported_reference',
      'reported_candidate',
      'reported_difference',
      'paired_difference',
      'ci_low',
      'ci_high',
    ]);
    expect(records.map((r) => r.metric)).toContain("'=m");
    const m = records.find((r) => r.metric === "'=m")!;
    expect(csvValue(m.reported_reference!)).toBe(-0.5);
  });

  it('does the same through the contract (export:examplesCsv, export:summaryCsv)', async () => {
    const harness: Harness = makeService();
    cleanups.push(() => harness.close());
    await harness.service.index([library(harness.dir)]);
    // The search export below needs the runs searchable, which the fill makes them after indexing.
    await harness.service.search.idle();
    const { key } = await harness.service.compare.run({ experimentId: '@exp', resamples: 200 });
    const all = await dispatch(harness.service, 'export:examplesCsv', { reportKey: key });
    if (!all.ok) throw new Error(all.error.message);
    const value = all.value as {
      content: string;
      rows: number;
      examples: number;
      filename: string;
    };
    checkExamples(value.content);
    expect(value.rows).toBe(parseCsv(value.content).length - 1);
    expect(value.examples).toBe(IDS.length);
    expect(value.filename).not.toMatch(/[/\\]|^[-.]/);
    const filtered = await dispatch(harness.service, 'export:examplesCsv', {
      reportKey: key,
      pair: 0,
      filter: { search: 'calc' },
    });
    if (!filtered.ok) throw new Error(filtered.error.message);
    checkCsv((filtered.value as { content: string }).content, EXAMPLE_HEADER, SCORES);
    const summary = await dispatch(harness.service, 'export:summaryCsv', { reportKey: key });
    if (!summary.ok) throw new Error(summary.error.message);
    expect((summary.value as { content: string }).content).toContain("'=m");
  });

  it('quotes formulas behind line breaks or spaces, and shows bidi and zero-width characters in ids', async () => {
    const harness: Harness = makeService();
    cleanups.push(() => harness.close());
    const lib = path.join(harness.dir, 'lib');
    const ids = ['\n=cmd()', '\r\n+1', '  @SUM(A1)', 'safe\u202egnp.exe', 'zero\u200bwidth', 'ok'];
    const examplesFor = (candidate: boolean) =>
      ids.map((id) => ({
        id,
        input: '\n=input()',
        output: candidate ? 'b' : 'a',
        fields: { score: candidate ? 1 : 0 },
      }));
    writeMechlensRun(lib, { id: 'ref', name: 'base\u2066line', examples: examplesFor(false) });
    writeMechlensRun(lib, {
      id: 'int',
      name: 'steer',
      experiment: { id: 'exp-test', role: 'intervention' },
      examples: examplesFor(true),
    });
    await harness.service.index([lib]);
    const { key } = await harness.service.compare.run({ experimentId: 'exp-test', resamples: 200 });
    const all = await dispatch(harness.service, 'export:examplesCsv', { reportKey: key });
    if (!all.ok) throw new Error(all.error.message);
    const records = checkCsv(
      (all.value as { content: string }).content,
      exampleCsvHeader(['score']),
      ['score.reference', 'score.candidate'],
    );
    expect(new Set(records.map((r) => r.example_id))).toEqual(
      new Set([
        "'\n=cmd()",
        "'\r\n+1",
        "'  @SUM(A1)",
        'safe\\u202egnp.exe',
        'zero\\u200bwidth',
        'ok',
      ]),
    );
    for (const r of records) {
      expect(r.input).toBe("'\n=input()");
      expect(r.reference_condition).toBe('base\\u2066line');
    }
  });
});
