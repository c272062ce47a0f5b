import { formatCounted } from '../../shared/format';
import { exportParquet } from '../core/export/parquet';
import type { ExportedReport } from '../core/export/parquet-comparisons';
import { listExperiments } from '../core/experiments';
import { openService, UsageError, type Io } from './commands';

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
    await service.converted();
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
        `Wrote ${formatCounted(stats.experiments, 'experiment')}, ${formatCounted(stats.runs, 'run')}, ${formatCounted(stats.examples, 'example')} and ${formatCounted(stats.comparisonExamples, 'compared example')} to ${dir}.`,
      );
    return 0;
  } finally {
    await service.close();
  }
}
