import { countExamples, exampleDetail, pageExamples } from '../compare/pager';
import { readReport } from '../compare/store';
import { cachedReportView } from '../../../shared/report-view';
import { NotFoundError } from '../errors';
import { examplesCsv, summaryCsv } from '../export/csv';
import { pendingSearch, refuseWhilePreparing } from '../search/explorer';
import type { PairwiseService } from '../service';
import { exampleTraces } from '../traces';
import type { HandlersOf } from './types';

function safeFilename(name: string): string {
  return name.replace(/[^\w.@-]+/g, '_');
}

/** Data rows of a CSV (quoted newlines inside cells are not row breaks). */
function countRows(csv: string): number {
  let rows = 0;
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) rows++;
  }
  return Math.max(0, rows - 1);
}

/** `compare:*`, `examples:*`, `export:*`: comparisons, the explorer's pages and the CSVs. */
export function exploreHandlers(
  service: PairwiseService,
): HandlersOf<'compare' | 'examples' | 'export'> {
  const db = () => service.db;
  const report = (reportKey: string) => {
    const found = readReport(db(), reportKey);
    if (!found) throw new NotFoundError('That comparison is no longer cached: run it again.');
    return found.report;
  };
  return {
    'compare:start': (settings) => ({ jobId: service.compare.start(settings).jobId }),
    'compare:report': (settings) => {
      const found = service.compare.cached(settings);
      return found && cachedReportView(found);
    },
    'examples:page': (input) => {
      const searchPending = pendingSearch(db(), service.search, input);
      if (searchPending) return { rows: [], next: null, total: null, searchPending };
      return pageExamples(db(), input);
    },
    'examples:count': (input) => {
      const searchPending = pendingSearch(db(), service.search, input);
      if (searchPending) return { total: 0, searchPending };
      return countExamples(db(), input);
    },
    'examples:detail': (input) => exampleDetail(db(), input),
    'examples:trace': (input) => exampleTraces(db(), input),
    'export:examplesCsv': ({ reportKey, pair, filter }) => {
      const found = report(reportKey);
      const pairs = pair === undefined ? found.comparisons.map((_, i) => i) : [pair];
      refuseWhilePreparing(db(), service.search, reportKey, pairs, filter ?? {});
      const { content, examples } = examplesCsv(db(), reportKey, found, { pair, filter });
      const which =
        pair === undefined
          ? 'all'
          : (found.comparisons[pair]?.candidate.condition ?? `pair-${pair}`);
      return {
        filename: safeFilename(`${found.experiment.id}-${which}-examples.csv`),
        content,
        rows: examples,
        examples,
      };
    },
    'export:summaryCsv': ({ reportKey }) => {
      const found = report(reportKey);
      const content = summaryCsv(found);
      return {
        filename: safeFilename(`${found.experiment.id}-summary.csv`),
        content,
        rows: countRows(content),
      };
    },
  };
}
