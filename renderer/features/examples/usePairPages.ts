import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import { request } from '../../api';
import { useApp } from '../../store';
import type { ExamplesFilter, ExamplesSort } from '../../store/workbench';
import { useRequest } from '../../useRequest';
import { RowPages } from './rowPages';
import { sharedOpening } from '../../../shared/input-opening';

export type PairRow = RequestOutput<'examples:page'>['rows'][number];

const PAGE = 200;
/** Ask for the next page while this many loaded rows are still below the view. */
const PREFETCH_ROWS = 40;
const EMPTY = RowPages.empty<PairRow>();

interface Loaded {
  query: string;
  rows: RowPages<PairRow>;
  total: number | null;
  next: string | null;
  /** What the first page's inputs all start with, left out of the grid's cells. */
  opening: string;
  /** The search waits for the pair's runs to be indexed for search: asked again meanwhile. */
  searchPending: RequestOutput<'examples:page'>['searchPending'] | null;
}

const NOTHING_LOADED = { rows: EMPTY, total: null, next: null, opening: '' };

type Page = RequestOutput<'examples:page'>;

/** What is loaded once `page` has come for `query`, after the rows `previous` (none for a first). */
function withPage(
  current: Loaded | null,
  query: string,
  previous: RowPages<PairRow>,
  page: Page,
  first: boolean,
): Loaded {
  const same = current?.query === query;
  return {
    query,
    rows: previous.append(page.rows),
    total: same ? current.total : null,
    next: page.next,
    // Taken from the first page and kept, so the cells do not shift as pages load.
    opening: first || !same ? sharedOpening(page.rows.map((r) => r.input)) : current.opening,
    searchPending: null,
  };
}

/** How often a search that is being prepared is asked again. */
const SEARCH_RETRY_MS = 1000;

/** The next ask of a search still being prepared; dropped when the view goes. */
function useRetryTimer() {
  const retry = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (retry.current) clearTimeout(retry.current);
    },
    [],
  );
  return retry;
}

/**
 * How many rows match, asked on its own after the first page (a million-row count never holds
 * rows up), and not while search is being prepared.
 */
function usePairCount(
  reportKey: string | null,
  pair: number,
  filter: ExamplesFilter,
  query: string,
  preparing: boolean,
): number | null {
  const ask = useRequest();
  const [counted, setCounted] = useState<{ query: string; total: number } | null>(null);
  useEffect(() => {
    if (!reportKey || preparing) return;
    let live = true;
    ask('examples:count', { reportKey, pair, filter }, ({ total }) => {
      if (live) setCounted({ query, total });
    });
    return () => {
      live = false;
    };
  }, [ask, query, reportKey, pair, filter, preparing]);
  return counted?.query === query ? counted.total : null;
}

/**
 * Rows of one pair, fetched a page at a time by key as the table scrolls. Rows belong to the
 * query that fetched them: after a change of filter or sort the old rows are simply not this
 * query's, and answers to superseded queries are dropped.
 */
export function usePairPages(
  reportKey: string | null,
  pair: number,
  filter: ExamplesFilter,
  sort: ExamplesSort,
) {
  const query = JSON.stringify([reportKey, pair, filter, sort]);
  const toast = useApp((s) => s.toast);
  const failed = useCallback(
    (error: unknown) => toast('error', error instanceof Error ? error.message : String(error)),
    [toast],
  );
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const inFlight = useRef<string | null>(null);
  const current = useRef(query);
  useEffect(() => {
    current.current = query;
  }, [query]);
  const retry = useRetryTimer();

  const fetchPage = useCallback(
    async (after: string | null, previous: RowPages<PairRow>) => {
      if (!reportKey) return;
      const mine = `${query}|${after ?? ''}`;
      if (inFlight.current === mine) return;
      inFlight.current = mine;
      try {
        const page = await request('examples:page', {
          reportKey,
          pair,
          filter,
          sort: sort.key,
          ...(sort.key === 'delta' ? { sortCriterion: sort.criterion } : {}),
          descending: sort.descending,
          after,
          limit: PAGE,
          // The count comes from examples:count on its own; counting here would do it twice.
          countTotal: false,
        });
        if (current.current !== query) return;
        if (page.searchPending) {
          const pending = page.searchPending;
          setLoaded({ ...NOTHING_LOADED, query, searchPending: pending });
          if (retry.current) clearTimeout(retry.current);
          retry.current = setTimeout(() => {
            if (current.current === query) fetchPage(null, EMPTY).catch(failed);
          }, SEARCH_RETRY_MS);
          return;
        }
        // A page is rendered in a transition, in slices React can pause for a scroll's frame:
        // the grid's rows in view do not change with it, only its height and what loads next.
        startTransition(() =>
          setLoaded((current) => withPage(current, query, previous, page, after === null)),
        );
      } finally {
        if (inFlight.current === mine) inFlight.current = null;
      }
    },
    [query, reportKey, pair, filter, sort, failed, retry],
  );

  useEffect(() => {
    // A page that cannot load says why; the grid keeps the rows it has.
    fetchPage(null, EMPTY).catch(failed);
  }, [fetchPage, failed]);

  const mine = loaded?.query === query ? loaded : null;
  const searchPending = mine?.searchPending ?? null;
  const preparing = searchPending !== null;

  const total = usePairCount(reportKey, pair, filter, query, preparing);

  // Stable while nothing new has loaded, so the memoized grid does not re-render for it.
  const loadMore = useCallback(() => {
    if (mine?.next) fetchPage(mine.next, mine.rows).catch(failed);
  }, [mine, fetchPage, failed]);
  return {
    rows: mine?.rows ?? EMPTY,
    opening: mine?.opening ?? '',
    total,
    loading: mine === null || preparing,
    loadMore,
    searchPending,
  };
}

/** Asks for the next page while fewer than PREFETCH_ROWS loaded rows are left below the view. */
export function useLoadAhead(
  lastInView: number,
  loaded: number,
  total: number | null,
  loadMore: () => void,
): void {
  useEffect(() => {
    if (lastInView >= loaded - PREFETCH_ROWS && total !== null && loaded < total) loadMore();
  }, [lastInView, loaded, total, loadMore]);
}
