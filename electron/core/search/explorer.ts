import type { ParsedInput } from '../../../shared/contract';
import { ftsQuery, ftsWords } from '../compare/filters';
import { openPair } from '../compare/pair-cache';
import type { Db } from '../db/open';
import { ConflictError } from '../errors';
import type { SearchIndexer } from './indexer';
import { searchPending, unreadyRuns, type SearchProgress } from './readiness';

/**
 * When the explorer searches a pair whose runs are not searchable yet: how far their index
 * has come (and they go first in the background job), or null to answer the search now —
 * the index holds them, or a scan of their texts (scans.ts) answered for them.
 */
export function pendingSearch(
  db: Db,
  indexer: SearchIndexer,
  input: Pick<ParsedInput<'examples:count'>, 'reportKey' | 'pair' | 'filter'>,
): SearchProgress | null {
  const search = input.filter.search;
  if (!search || ftsQuery(search) === null) return null;
  const view = openPair(db, input.reportKey, input.pair);
  const runs = [view.reference?.runRowid, view.candidate?.runRowid].filter(
    (rowid): rowid is number => rowid !== undefined,
  );
  const pending = searchPending(db, runs);
  if (!pending) return null;
  indexer.prioritise(runs);
  return indexer.scans.answered(unreadyRuns(db, runs), ftsWords(search)!) ? null : pending;
}

/**
 * An export of a search waits for the search to be ready (indexed, or its scans finished):
 * the index would give only the matches of the examples indexed so far, and a CSV that
 * silently misses rows is worse than none.
 */
export function refuseWhilePreparing(
  db: Db,
  indexer: SearchIndexer,
  reportKey: string,
  pairs: number[],
  filter: ParsedInput<'examples:count'>['filter'],
): void {
  for (const pair of pairs) {
    const pending = pendingSearch(db, indexer, { reportKey, pair, filter });
    if (pending) {
      const share = Math.floor((100 * pending.done) / Math.max(1, pending.total));
      throw new ConflictError(
        `Search is still being prepared for these runs (${share}%): export again in a moment.`,
      );
    }
  }
}
