/**
 * The explorer's first-page queries at scale, through pageExamples on a writer connection like
 * the service's. Each finished query is appended to a progress file at once, because one
 * query can take effectively forever (see run.ts's watchdog): the driver then kills this
 * process, records that query as timed out, and starts again from the next one.
 */

import fs from 'node:fs';
import type { ParsedInput } from '../../shared/contract';
import { countExamples, pageExamples } from '../../electron/core/compare/pager';
import { openDatabase } from '../../electron/core/db/open';
import { searchTerms } from './generate';
import { timed } from './measure';

export interface ExplorerArgs {
  dbPath: string;
  reportKey: string;
  /** The index of the first query to run. */
  from: number;
  progressFile: string;
}

export interface ExplorerQuery {
  label: string;
  kind: 'filter' | 'sort';
  /** The first page of rows, without the count (countTotal: false, as the UI asks for it). */
  seconds: number;
  /** examples:count for the same filter, which the UI requests beside the page. */
  countSeconds: number | null;
  /** Rows matching the filter; null when the query was stopped. */
  total: number | null;
  timedOut: boolean;
}

type PageInput = ParsedInput<'examples:page'>;
type Query = { label: string; kind: 'filter' | 'sort' } & Partial<
  Pick<PageInput, 'filter' | 'sort' | 'sortCriterion' | 'descending'>
>;

/**
 * What a researcher clicks through: every class on every criterion, the change toggles, the
 * search box with terms from very common to absent, and the sortable columns. Each is a first
 * page (no cursor), the page the UI must show after the click.
 */
function explorerQueries(): Query[] {
  const queries: Query[] = [];
  for (const criterion of ['refused', 'score', 'length'])
    for (const changeClass of ['improved', 'regressed', 'changed'] as const)
      queries.push({
        label: `${criterion} ${changeClass}`,
        kind: 'filter',
        filter: { criterion, changeClass },
      });
  for (const changeClass of ['regressed', 'unchanged'] as const)
    queries.push({
      label: `any criterion ${changeClass}`,
      kind: 'filter',
      filter: { changeClass },
    });
  for (const value of [true, false]) {
    queries.push({
      label: `output changed=${value}`,
      kind: 'filter',
      filter: { outputChanged: value },
    });
    queries.push({
      label: `behaviour changed=${value}`,
      kind: 'filter',
      filter: { behaviorChanged: value },
    });
  }
  searchTerms.forEach((term, i) =>
    queries.push({
      label: `search term ${i + 1} "${term}"`,
      kind: 'filter',
      filter: { search: term },
    }),
  );
  queries.push({
    label: 'search common term + output changed',
    kind: 'filter',
    filter: { search: searchTerms[1]!, outputChanged: true },
  });
  queries.push({
    label: 'score regressed + search',
    kind: 'filter',
    filter: { criterion: 'score', changeClass: 'regressed', search: searchTerms[0]! },
  });
  const sorts: [PageInput['sort'], boolean][] = [
    ['output_changed', true],
    ['output_changed', false],
    ['behavior_changed', true],
    ['behavior_changed', false],
    ['example_id', true],
  ];
  for (const [sort, descending] of sorts)
    queries.push({
      label: `sort ${sort} ${descending ? 'desc' : 'asc'}`,
      kind: 'sort',
      sort,
      descending,
    });
  // By how far each example moved: largest regressions first, and the other end.
  for (const descending of [false, true])
    queries.push({
      label: `sort by score difference ${descending ? 'desc' : 'asc'}`,
      kind: 'sort',
      sort: 'delta',
      sortCriterion: 'score',
      descending,
    });
  queries.push({
    label: 'sort by score difference, output changed',
    kind: 'sort',
    sort: 'delta',
    sortCriterion: 'score',
    filter: { outputChanged: true },
  });
  const filtered: [string, PageInput['filter']][] = [
    ['refused regressed', { criterion: 'refused', changeClass: 'regressed' }],
    ['output changed', { outputChanged: true }],
    ['search', { search: searchTerms[1]! }],
  ];
  for (const [label, filter] of filtered)
    queries.push({
      label: `sort output_changed desc, ${label}`,
      kind: 'sort',
      sort: 'output_changed',
      descending: true,
      filter,
    });
  return queries;
}

export const explorerQueryCount = explorerQueries().length;

export async function explorerPhase(args: ExplorerArgs): Promise<{ done: number }> {
  const db = openDatabase(args.dbPath);
  const queries = explorerQueries();
  try {
    for (let i = args.from; i < queries.length; i++) {
      const query = queries[i]!;
      const input: PageInput = {
        reportKey: args.reportKey,
        pair: 0,
        filter: query.filter ?? {},
        sort: query.sort ?? 'example_id',
        ...(query.sortCriterion !== undefined ? { sortCriterion: query.sortCriterion } : {}),
        countTotal: false,
        descending: query.descending ?? false,
        after: null,
        limit: 200,
      };
      // As the UI asks: the page's rows first, the count of all matches in a request of its own.
      const page = await timed(() => pageExamples(db, input));
      const count = await timed(() => countExamples(db, input));
      const line: ExplorerQuery = {
        label: query.label,
        kind: query.kind,
        seconds: page.seconds,
        countSeconds: count.seconds,
        total: count.value.total,
        timedOut: false,
      };
      fs.appendFileSync(args.progressFile, `${JSON.stringify(line)}\n`);
    }
    return { done: queries.length };
  } finally {
    db.close();
  }
}

export function queryLabel(index: number): Pick<ExplorerQuery, 'label' | 'kind'> {
  const query = explorerQueries()[index]!;
  return { label: query.label, kind: query.kind };
}
