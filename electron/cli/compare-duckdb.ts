import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Report } from '../../shared/compare/types';
import { openDatabase } from '../core/db/open';
import { examplesCsvFromParquet } from '../core/duckdb/csv';
import {
  compareFromParquet,
  comparePairFromParquet,
  type ParquetComparison,
} from '../core/duckdb/engine';
import { exportedExperimentIds } from '../core/duckdb/plan';
import { openParquetSource, type ParquetSource } from '../core/duckdb/source';
import { summaryCsv } from '../core/export/csv';
import { exportParquet } from '../core/export/parquet';
import { PairwiseService } from '../core/service';
import { s3Settings, UsageError, type Io } from './commands';
import {
  checkOneCsv,
  emit,
  isPairCall,
  parseResamples,
  planTargets,
  validate,
  type CompareFlags,
  type Format,
} from './compare';
import type { CompareTarget } from './compare-targets';
import { defaultDbPath, packageVersion } from './paths';
import { reportTable } from './report-table';
import { isVerbose } from './verbosity';

/**
 * `pairwise compare --engine duckdb`: the built-in engine's output, computed by DuckDB over a
 * Parquet export: --parquet DIR (a folder or an s3:// prefix), or --db FILE or PATHs (indexed
 * into a throwaway library as the built-in engine does), exported to a temporary folder first.
 * Experiments, or two runs (--baseline/--candidate, two run ids, or two paths).
 */
export async function duckdbCompareCommand(
  paths: string[],
  flags: CompareFlags,
  format: Format,
  io: Io,
): Promise<number> {
  if (flags.engine !== 'duckdb') throw new UsageError('--engine must be builtin or duckdb.');
  if (flags.parquet && flags.db) throw new UsageError('Give --parquet DIR or --db FILE, not both.');
  if (flags.parquet) checkParquetCall(paths, flags);
  else validate(paths, flags);
  const resamples = parseResamples(flags.resamples);
  const scratch = flags.parquet ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-pq-'));
  try {
    const indexed = scratch && !flags.db && paths.length > 0;
    const planned = indexed ? await indexAndExport(paths, flags, scratch, resamples, io) : null;
    if (scratch && !indexed) await exportLibrary(flags.db, scratch, flags.experiment);
    const location = flags.parquet ?? scratch!;
    const { endpoint } = s3Settings(flags.parquet ? [flags.parquet] : [], flags.endpoint);
    const source = await openParquetSource(location, {
      endpoint,
      note: (text) => {
        if (isVerbose()) io.err(`note: ${text}`);
      },
    });
    const sections: string[] = [];
    const reports: Report[] = [];
    try {
      const targets = planned ?? (await exportTargets(source, paths, flags));
      if (targets.length === 0) {
        io.err(
          planned
            ? `Nothing to compare: no run could be read from ${paths.join(', ')}.`
            : 'No experiments in the export: index some runs first (pairwise index PATH).',
        );
        return 1;
      }
      checkOneCsv(format, targets.length);
      for (const target of targets) {
        const comparison = await compareTarget(source, target, resamples);
        reports.push(comparison.report);
        sections.push(await render(format, source, comparison));
      }
    } finally {
      source.close();
    }
    const text =
      format === 'json' && reports.length > 1
        ? JSON.stringify(reports, null, 2)
        : sections.join('\n\n');
    emit(text, flags, io);
    return 0;
  } finally {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** With --parquet, runs are named by id: two positionals or --baseline/--candidate. */
function checkParquetCall(paths: string[], flags: CompareFlags): void {
  if ((flags.baseline === undefined) !== (flags.candidate === undefined))
    throw new UsageError('Give both --baseline RUN and --candidate RUN.');
  const pair = flags.baseline !== undefined || paths.length > 0;
  if ((paths.length > 0 && !isPairCall(paths, flags)) || (pair && flags.experiment))
    throw new UsageError(
      'With --parquet, give --experiment ID, or two run ids (RUN_A RUN_B or --baseline/--candidate), not both.',
    );
  if (flags.baseline !== undefined && paths.length > 0)
    throw new UsageError('Give RUN_A RUN_B or --baseline/--candidate, not both.');
}

async function exportTargets(
  source: ParquetSource,
  paths: string[],
  flags: CompareFlags,
): Promise<CompareTarget[]> {
  if (flags.baseline !== undefined && flags.candidate !== undefined)
    return [{ baseline: flags.baseline, candidate: flags.candidate }];
  if (isPairCall(paths, flags)) return [{ baseline: paths[0]!, candidate: paths[1]! }];
  const ids = flags.experiment ? [flags.experiment] : await exportedExperimentIds(source);
  return ids.map((experimentId) => ({ experimentId, reference: flags.reference }));
}

async function compareTarget(
  source: ParquetSource,
  target: CompareTarget,
  resamples: number | undefined,
): Promise<ParquetComparison> {
  const comparison =
    'baseline' in target
      ? await comparePairFromParquet(source, target.baseline, target.candidate, { resamples })
      : await compareFromParquet(source, target.experimentId, {
          reference: target.reference,
          resamples,
        });
  // The built-in engine's report goes through its JSON in the library: the same here.
  return { ...comparison, report: JSON.parse(JSON.stringify(comparison.report)) as Report };
}

async function render(
  format: Format,
  source: ParquetSource,
  comparison: ParquetComparison,
): Promise<string> {
  if (format === 'json') return JSON.stringify(comparison.report, null, 2);
  if (format === 'table') return reportTable(comparison.report);
  if (format === 'summary-csv') return summaryCsv(comparison.report);
  return examplesCsvFromParquet(source, comparison);
}

/**
 * PATHs are indexed into a throwaway library, and what to compare is chosen there as the
 * built-in engine chooses it (two paths matched task by task); the library is then exported.
 */
async function indexAndExport(
  paths: string[],
  flags: CompareFlags,
  scratch: string,
  resamples: number | undefined,
  io: Io,
): Promise<CompareTarget[]> {
  const s3 = s3Settings(paths, flags.endpoint);
  const service = new PairwiseService({
    dbPath: path.join(scratch, 'pairwise.db'),
    host: 'cli',
    // A throwaway library logs to the default data folder, so the log outlives it.
    dataDir: path.dirname(defaultDbPath(undefined)),
    verbose: isVerbose(),
    version: packageVersion(),
  });
  try {
    const stats = await service.index(paths, s3);
    for (const p of stats.problems) io.err(`problem: ${p.path}: ${p.message}`);
    const { targets, notes } = planTargets(service, paths, flags, resamples);
    for (const note of notes) io.err(`note: ${note}`);
    if (targets.length > 0) await exportParquet(service.db, scratch);
    return targets;
  } finally {
    await service.close();
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
