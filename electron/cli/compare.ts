import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listExperiments } from '../core/experiments';
import { examplesCsv, summaryCsv } from '../core/export/csv';
import { PairwiseService } from '../core/service';
import { UsageError, type Io } from './commands';
import { defaultDbPath, packageVersion } from './paths';
import { reportTable } from './report-table';

export interface CompareFlags {
  db?: string;
  experiment?: string;
  reference?: string;
  format?: string;
  out?: string;
  resamples?: string;
}

const formats = ['json', 'table', 'csv', 'summary-csv'] as const;

/**
 * `pairwise compare`: from an indexed database, or straight from paths (indexed into a
 * throwaway database first), the quickest answer a researcher can get.
 */
export async function compareCommand(
  paths: string[],
  flags: CompareFlags,
  io: Io,
): Promise<number> {
  const format = (flags.format ?? 'table') as (typeof formats)[number];
  if (!formats.includes(format))
    throw new UsageError(`--format must be one of ${formats.join(', ')}.`);
  const resamples = flags.resamples === undefined ? undefined : Number(flags.resamples);
  if (
    resamples !== undefined &&
    (!Number.isInteger(resamples) || resamples < 100 || resamples > 200_000)
  ) {
    throw new UsageError('--resamples must be a whole number from 100 to 200,000.');
  }
  if (paths.length > 0 && flags.db) throw new UsageError('Give either PATH... or --db, not both.');
  const scratch =
    paths.length > 0 ? fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-compare-')) : null;
  const service = new PairwiseService({
    dbPath: scratch ? path.join(scratch, 'pairwise.db') : defaultDbPath(flags.db),
    host: 'cli',
    version: packageVersion(),
  });
  try {
    if (paths.length > 0) {
      const stats = await service.index(paths);
      for (const p of stats.problems) io.err(`problem: ${p.path}: ${p.message}`);
    }
    const experiments = listExperiments(service.db);
    let experimentId = flags.experiment;
    if (!experimentId) {
      if (experiments.length === 0) {
        io.err('No experiments found: index some runs first (pairwise index PATH).');
        return 1;
      }
      if (experiments.length > 1) {
        throw new UsageError(
          `Several experiments; pick one with --experiment:\n${experiments.map((e) => `  ${e.id}  (${e.conditions} conditions)`).join('\n')}`,
        );
      }
      experimentId = experiments[0]!.id;
    }
    const { key, report } = await service.compare.run({
      experimentId,
      reference: flags.reference,
      resamples,
    });
    const text =
      format === 'json'
        ? JSON.stringify(report, null, 2)
        : format === 'table'
          ? reportTable(report)
          : format === 'csv'
            ? examplesCsv(service.db, key, report)
            : summaryCsv(report);
    if (flags.out) fs.writeFileSync(flags.out, text.endsWith('\n') ? text : text + '\n');
    else io.out(text.replace(/\r?\n$/, ''));
    return 0;
  } finally {
    await service.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}
