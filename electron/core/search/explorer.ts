import type { ParsedInput } from '../../../shared/contract';
import { ftsQuery, pairScope } from '../compare/filters';
import type { Db } from '../db/open';
import type { SearchIndexer } from './indexer';
import { searchPending, type SearchProgress } from './readiness';

/**
 * When the explorer searches a pair whose runs are not searchable yet: how far their index
 * has come (and they go first in the background job), or null to answer the search now.
 */
export function pendingSearch(
  db: Db,
  indexer: SearchIndexer,
  input: Pick<ParsedInput<'examples:count'>, 'reportKey' | 'pair' | 'filter'>,
): SearchProgress | null {
  const search = input.filter.search;
  if (!search || ftsQuery(search) === null) return null;
  const scope = pairScope(db, input.reportKey, input.pair);
  const runs = [scope?.reference?.runRowid, scope?.candidate?.runRowid].filter(
    (rowid): rowid is number => rowid !== undefined,
  );
  const pending = searchPending(db, runs);
  if (pending) indexer.prioritise(runs);
  return pending;
}
