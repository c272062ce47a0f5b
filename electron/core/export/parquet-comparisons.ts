import type { Report } from '../../../shared/compare/types';
import { CLASSES, FLAG, sideOf } from '../compare/codes';
import { idAt } from '../compare/pair-arrays';
import { openPair } from '../compare/pair-cache';
import type { Db } from '../db/open';
import { COMPARISON_CRITERIA, COMPARISON_EXAMPLES, COMPARISONS } from './parquet-schema';
import type { ParquetStaging } from './parquet-writer';

/** A saved report, by the cache key its pair arrays are stored under. */
export interface ExportedReport {
  key: string;
  report: Report;
}

/**
 * The compared pairs of each report, from their stored arrays (compare/pair-arrays.ts): one
 * row per pair, one per compared example and one per example and criterion. A pair's arrays
 * are decoded one pair at a time, as the explorer does. Returns the example rows written.
 */
export async function writeComparisons(
  db: Db,
  staging: ParquetStaging,
  reports: ExportedReport[],
): Promise<number> {
  const pairs = await staging.table(COMPARISONS);
  const examples = await staging.table(COMPARISON_EXAMPLES);
  const criteria = await staging.table(COMPARISON_CRITERIA);
  let written = 0;
  for (const { key, report } of reports) {
    const experimentId = report.experiment.id;
    report.comparisons.forEach((comparison, pair) => {
      const view = openPair(db, key, pair);
      pairs.append([
        experimentId,
        key,
        pair,
        comparison.reference.condition,
        comparison.reference.run_id,
        comparison.candidate.condition,
        comparison.candidate.run_id,
        view.criteria,
        view.rows,
      ]);
      for (let k = 0; k < view.rows; k++) {
        const id = idAt(view, k);
        const flags = view.flags[k]!;
        const side = sideOf(flags);
        examples.append([
          experimentId,
          pair,
          id,
          side,
          side !== 'candidate',
          side !== 'reference',
          (flags & FLAG.inputMismatch) !== 0,
          (flags & FLAG.outputChanged) !== 0,
          (flags & FLAG.behaviorChanged) !== 0,
        ]);
        view.criteria.forEach((criterion, c) => {
          const difference = view.deltas[c]![k]!;
          criteria.append([
            experimentId,
            pair,
            id,
            criterion,
            CLASSES[view.classes[c]![k]!]!,
            Number.isNaN(difference) ? null : difference,
          ]);
        });
      }
      written += view.rows;
    });
  }
  for (const table of [pairs, examples, criteria]) table.finish();
  for (const spec of [COMPARISONS, COMPARISON_EXAMPLES, COMPARISON_CRITERIA])
    await staging.copy(spec);
  return written;
}
