import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Report } from '../../shared/compare/types';
import { examplesCsv, summaryCsv } from '../core/export/csv';
import { PairwiseService } from '../core/service';
import { isS3Url } from '../core/sources/s3-location';
import { s3Settings, UsageError, type Io } from './commands';
import { progressBar } from './progress-bar';
import { isVerbose } from './verbosity';
import { experimentTargets, pathPairTargets, type TargetPlan } from './compare-targets';
import { duckdbCompareCommand } from './compare-duckdb';
import { defaultDbPath, packageVersion } from './paths';
import { reportTable } from './report-table';

export interface CompareFlags {
  db?: string;
  experiment?: string;
  reference?: string;
  baseline?: string;
  candidate?: string;
  format?: string;
  out?: string;
  resamples?: string;
  engine?: string;
  parquet?: string;
  endpoint?: string;
}

export const formats = ['json', 'table', 'csv', 'summary-csv'] as const;
export type Format = (typeof formats)[number];

export function parseResamples(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const resamples = Number(text);
  if (!Number.isInteger(resamples) || resamples < 100 || resamples > 200_000)
    throw new UsageError('--resamples must be a whole number from 100 to 200,000.');
  return resamples;
}

/** Two positionals without --experiment or --reference name a baseline and a candidate. */
export function isPairCall(paths: string[], flags: CompareFlags): boolean {
  return paths.length === 2 && !flags.experiment && !flags.reference;
}

export function validate(paths: string[], flags: CompareFlags): void {
  if ((flags.baseline === undefined) !== (flags.candidate === undefined))
    throw new UsageError('Give both --baseline RUN and --candidate RUN.');
  if (flags.baseline !== undefined && (paths.length > 0 || flags.experiment || flags.reference))
    throw new UsageError(
      '--baseline and --candidate compare two runs of --db: give no PATH, --experiment or --reference.',
    );
  if (paths.length > 0 && flags.db && !isPairCall(paths, flags))
    throw new UsageError(
      'Give either PATH... or --db, not both (with --db, two run ids may be given).',
    );
  if (paths.length > 0 && !flags.db) {
    for (const p of paths) {
      if (!isS3Url(p) && !fs.existsSync(p))
        throw new UsageError(
          `${p} is neither a file nor a folder (to compare two run ids, give --db).`,
        );
    }
  }
}

export function checkOneCsv(format: Format, targets: number): void {
  if (targets > 1 && (format === 'csv' || format === 'summary-csv'))
    throw new UsageError(
      `${targets} comparisons; a CSV holds one. Pick one with --experiment, or use --format json or table.`,
    );
}

/** The command's text, written to --out (ending in a newline) or printed. */
export function emit(text: string, flags: CompareFlags, io: Io): void {
  if (flags.out) fs.writeFileSync(flags.out, text.endsWith('\n') ? text : text + '\n');
  else io.out(text.replace(/\r?\n$/, ''));
}

function render(format: Format, service: PairwiseService, key: string, report: Report): string {
  if (format === 'json') return JSON.stringify(report, null, 2);
  if (format === 'table') return reportTable(report);
  return format === 'csv' ? examplesCsv(service.db, key, report).content : summaryCsv(report);
}

export function planTargets(
  service: PairwiseService,
  paths: string[],
  flags: CompareFlags,
  resamples?: number,
): TargetPlan {
  if (flags.baseline !== undefined && flags.candidate !== undefined)
    return {
      targets: [{ baseline: flags.baseline, candidate: flags.candidate, resamples }],
      notes: [],
    };
  if (isPairCall(paths, flags)) {
    return flags.db
      ? { targets: [{ baseline: paths[0]!, candidate: paths[1]!, resamples }], notes: [] }
      : pathPairTargets(service, paths[0]!, paths[1]!, resamples);
  }
  return experimentTargets(service, { ...flags, resamples });
}

/**
 * `pairwise compare`: from an indexed database, or straight from paths (indexed into a
 * throwaway database first), the quickest answer a researcher can get. Every experiment found
 * is compared (one section each); two paths or two runs compare as baseline and candidate.
 */
export async function compareCommand(
  paths: string[],
  flags: CompareFlags,
  io: Io,
): Promise<number> {
  const format = (flags.format ?? 'table') as Format;
  if (!formats.includes(format))
    throw new UsageError(`--format must be one of ${formats.join(', ')}.`);
  if (flags.engine !== undefined && flags.engine !== 'builtin')
    return duckdbCompareCommand(paths, flags, format, io);
  if (flags.parquet !== undefined) throw new UsageError('--parquet needs --engine duckdb.');
  const resamples = parseResamples(flags.resamples);
  validate(paths, flags);
  const indexPaths = flags.db ? [] : paths;
  const s3 = s3Settings(indexPaths, flags.endpoint);
  const scratch =
    indexPaths.length > 0 ? fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-compare-')) : null;
  const service = new PairwiseService({
    dbPath: scratch ? path.join(scratch, 'pairwise.db') : defaultDbPath(flags.db),
    host: 'cli',
    // A throwaway library logs to the default data folder, so the log outlives it.
    ...(scratch ? { dataDir: path.dirname(defaultDbPath(undefined)) } : {}),
    verbose: isVerbose(),
    version: packageVersion(),
  });
  try {
    const stopBar = progressBar(service.events, {
      enabled: Boolean(process.stderr.isTTY) && format !== 'json',
      label: 'Comparing',
    });
    await service.converted();
    if (indexPaths.length > 0) {
      const stats = await service.index(indexPaths, s3);
      for (const p of stats.problems) io.err(`problem: ${p.path}: ${p.message}`);
    }
    const { targets, notes } = planTargets(service, paths, flags, resamples);
    if (targets.length === 0) {
      io.err(
        indexPaths.length > 0
          ? `Nothing to compare: no run could be read from ${indexPaths.join(', ')}.`
          : 'No experiments found: index some runs first (pairwise index PATH).',
      );
      return 1;
    }
    checkOneCsv(format, targets.length);
    for (const note of notes) io.err(`note: ${note}`);
    const sections: { key: string; report: Report }[] = [];
    try {
      for (const target of targets) sections.push(await service.compare.run(target));
    } finally {
      stopBar();
    }
    const text =
      format === 'json' && sections.length > 1
        ? JSON.stringify(
            sections.map((s) => s.report),
            null,
            2,
          )
        : sections.map((s) => render(format, service, s.key, s.report)).join('\n\n');
    emit(text, flags, io);
    return 0;
  } finally {
    await service.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}
