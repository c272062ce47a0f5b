import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Report } from '../../shared/compare/types';
import { summaryCsv } from '../core/export/csv';
import { exportParquet } from '../core/export/parquet';
import type { ExportedReport } from '../core/export/parquet-comparisons';
import { openDatabase } from '../core/db/open';
import { compareFromParquet } from '../core/duckdb/engine';
import { exportedExperimentIds } from '../core/duckdb/plan';
import { openParquetSource } from '../core/duckdb/source';
import { listExperiments } from '../core/experiments';
import { openService, s3Settings, UsageError, type Io } from './commands';
import { parseResamples, type CompareFlags } from './compare';
import { defaultDbPath } from './paths';
import { reportTable } from './report-table';
import { isVerbose } from './verbosity';

/**
 * `pairwise export parquet DIR`: the library as Parquet files (docs/parquet.md), with each
 * experiment compared first (or its cached report reused) so its compared pairs' rows go too.
 */
export async function exportParquetCommand(
  positionals: string[],
  flags: { db?: string; experiment?: string[]; json?: boolean },
  io: Io,
): Promise<number> {
  const [what, dir, ...rest] = positionals;
  if (what !== 'parquet' || !dir || rest.length > 0)
    throw new UsageError('Usage: pairwise export parquet DIR [--db FILE] [--experiment ID]…');
  const service = openService(flags.db, 'cli');
  try {
    const ids = flags.experiment?.length
      ? flags.experiment
      : listExperiments(service.db).map((e) => e.id);
    const reports: ExportedReport[] = [];
    for (const experimentId of ids) {
      const { key, report } = await service.compare.run({ experimentId });
      reports.push({ key, report });
    }
    const stats = await exportParquet(service.db, dir, { experiments: ids, reports });
    if (flags.json) io.out(JSON.stringify(stats));
    else
      io.out(
        `Wrote ${stats.experiments} experiments, ${stats.runs} runs, ${stats.examples} examples and ${stats.comparisonExamples} compared examples to ${dir}.`,
      );
    return 0;
  } finally {
    await service.close();
  }
}

/**
 * `pairwise compare --engine duckdb`: the report from a Parquet export (--parquet DIR), or from
 * --db exported to a temporary folder first. Same report JSON as the built-in engine.
 */
export async function duckdbCompareCommand(
  paths: string[],
  flags: CompareFlags,
  io: Io,
): Promise<number> {
  if (flags.engine !== 'duckdb') throw new UsageError('--engine must be builtin or duckdb.');
  if (paths.length > 0 || flags.baseline !== undefined)
    throw new UsageError(
      '--engine duckdb compares the experiments of an export: give --parquet DIR or --db FILE, no PATH or --baseline.',
    );
  if (flags.parquet && flags.db) throw new UsageError('Give --parquet DIR or --db FILE, not both.');
  const format = flags.format ?? 'table';
  if (!['json', 'table', 'summary-csv'].includes(format))
    throw new UsageError('--engine duckdb prints json, table or summary-csv.');
  const resamples = parseResamples(flags.resamples);
  const scratch = flags.parquet ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-pq-'));
  try {
    if (scratch) await exportLibrary(flags.db, scratch, flags.experiment);
    const { endpoint } = s3Settings(flags.parquet ? [flags.parquet] : [], flags.endpoint);
    const source = await openParquetSource(flags.parquet ?? scratch!, {
      endpoint,
      note: (text) => {
        if (isVerbose()) io.err(`note: ${text}`);
      },
    });
    const reports: Report[] = [];
    try {
      const ids = flags.experiment ? [flags.experiment] : await exportedExperimentIds(source);
      if (ids.length === 0) {
        io.err('No experiments in the export: index some runs first (pairwise index PATH).');
        return 1;
      }
      for (const id of ids)
        // The built-in engine's report goes through its JSON in the library: the same here.
        reports.push(
          JSON.parse(
            JSON.stringify(
              await compareFromParquet(source, id, { reference: flags.reference, resamples }),
            ),
          ) as Report,
        );
    } finally {
      source.close();
    }
    const text =
      format === 'json'
        ? JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)
        : reports.map((r) => (format === 'table' ? reportTable(r) : summaryCsv(r))).join('\n\n');
    if (flags.out) fs.writeFileSync(flags.out, text.endsWith('\n') ? text : text + '\n');
    else io.out(text.replace(/\r?\n$/, ''));
    return 0;
  } finally {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function exportLibrary(
  db: string | undefined,
  dir: string,
  experiment: string | undefined,
): Promise<void> {
  const file = defaultDbPath(db);
  if (!fs.existsSync(file)) throw new UsageError(`There is no library at ${file}.`);
  const library = openDatabase(file, { readonly: true });
  try {
    await exportParquet(library, dir, { experiments: experiment ? [experiment] : [] });
  } finally {
    library.close();
  }
}
