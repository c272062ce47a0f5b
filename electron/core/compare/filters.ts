import type { ParsedInput } from '../../../shared/contract';
import type { Db } from '../db/open';
import type { PairSide } from './compute';
import { allKey, countLookup, STORED_CLASSES } from './counts';

type Filter = ParsedInput<'examples:page'>['filter'];

/** One compared pair of a cached report, as its explorer queries need it. */
export interface PairScope {
  reportId: number;
  pair: number;
  /** The pair's criteria in the report's order; a criterion without a class row is unchanged. */
  criteria: string[];
  reference: PairSide | null;
  candidate: PairSide | null;
}

/** null when no report has that key; a pair the report does not have has no rows. */
export function pairScope(db: Db, reportKey: string, pair: number): PairScope | null {
  const report = db.prepare(`SELECT id FROM reports WHERE key = ?`).get(reportKey) as
    { id: number } | undefined;
  if (!report) return null;
  const row = db
    .prepare(
      `SELECT criteria, ref_run_rowid, ref_first, ref_last, cand_run_rowid, cand_first, cand_last
       FROM report_pairs WHERE report_id = ? AND pair = ?`,
    )
    .get(report.id, pair) as
    | {
        criteria: string;
        ref_run_rowid: number;
        ref_first: number | null;
        ref_last: number | null;
        cand_run_rowid: number;
        cand_first: number | null;
        cand_last: number | null;
      }
    | undefined;
  if (!row) return { reportId: report.id, pair, criteria: [], reference: null, candidate: null };
  return {
    reportId: report.id,
    pair,
    criteria: JSON.parse(row.criteria) as string[],
    reference: { runRowid: row.ref_run_rowid, firstRowid: row.ref_first, lastRowid: row.ref_last },
    candidate: {
      runRowid: row.cand_run_rowid,
      firstRowid: row.cand_first,
      lastRowid: row.cand_last,
    },
  };
}

/** The pair_counts value for a key; a key that was never stored (unknown criterion) is 0. */
export function storedCount(db: Db, scope: PairScope, key: string): number {
  const row = db
    .prepare(`SELECT n FROM pair_counts WHERE report_id = ? AND pair = ? AND filter = ?`)
    .get(scope.reportId, scope.pair, key) as { n: number } | undefined;
  return row?.n ?? 0;
}

/** The exact count of a one-condition filter from pair_counts, or null (count it in SQL). */
export function countFromSummary(db: Db, scope: PairScope, filter: Filter): number | null {
  const lookup = countLookup(filter);
  if (!lookup) return null;
  const n = storedCount(db, scope, lookup.key);
  return lookup.complement ? storedCount(db, scope, allKey) - n : n;
}

/**
 * A user's search as FTS5 syntax: every word must begin a word of the input or output (so a
 * word still being typed already finds), each word quoted, so their quotes and operators are
 * text, never syntax. Words are cut where the unicode61 tokenizer cuts them; null when the
 * search has no word characters at all.
 */
export function ftsQuery(search: string): string | null {
  const words = search.match(/[\p{L}\p{N}\p{Mn}]+/gu);
  return words ? words.map((w) => `"${w}"*`).join(' ') : null;
}

/** Up to this many words of the index, a typed word is searched as those words. */
const EXPANSIONS = 8;

/**
 * The FTS5 query, with each ASCII word replaced by the few indexed words it begins, when they
 * are few: `"napol"*` becomes `("napoleon" OR "napoli")`. Same matches, but a row-by-row probe
 * of a prefix query merges the lists of every word it begins on each probe, and an OR of a few
 * words seeks each list once. Other words (many expansions, or non-ASCII, which the tokenizer
 * folds in ways a plain range cannot follow) keep the prefix query. `costly` is set when one
 * did, so the caller avoids probing row by row.
 */
function expandedQuery(db: Db, search: string): { query: string; costly: boolean } | null {
  const words = search.match(/[\p{L}\p{N}\p{Mn}]+/gu);
  if (!words) return null;
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.examples_vocab USING fts5vocab(main, examples_fts, 'row')`,
  );
  const range = db
    .prepare(`SELECT term FROM temp.examples_vocab WHERE term >= ? AND term < ? LIMIT ?`)
    .pluck();
  let costly = false;
  const parts = words.map((word) => {
    const w = word.toLowerCase();
    if (!/^[\x20-\x7e]+$/.test(w)) {
      costly = true;
      return ftsQuery(word)!;
    }
    const next = w.slice(0, -1) + String.fromCharCode(w.charCodeAt(w.length - 1) + 1);
    const terms = range.all(w, next, EXPANSIONS + 1) as string[];
    if (terms.length > EXPANSIONS) {
      costly = true;
      return ftsQuery(word)!;
    }
    // No indexed word begins with it: nothing can match.
    if (terms.length === 0) return `"${word}"`;
    const quoted = terms.map((t) => `"${t.replace(/"/g, '""')}"`);
    return quoted.length === 1 ? quoted[0]! : `(${quoted.join(' OR ')})`;
  });
  // FTS5 joins parenthesized groups only with an explicit AND.
  return { query: parts.join(' AND '), costly };
}

/**
 * A search may be (part of) an example id, which the full-text index does not hold (`syc-0035`,
 * or a promptfoo test's description): it also matches the ids that contain it, ignoring ASCII
 * case. The ids are looked for first; most searches match none, and then add nothing to the
 * text search's plan.
 */
function idClause(db: Db, scope: PairScope, search: string): Clause | null {
  const text = search.trim();
  if (!text) return null;
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const any = db
    .prepare(
      `SELECT 1 FROM pair_rows WHERE report_id = ? AND pair = ? AND example_id LIKE ? ESCAPE '\\' LIMIT 1`,
    )
    .get(scope.reportId, scope.pair, pattern);
  if (!any) return null;
  return {
    sql: `pr.example_id LIKE ? ESCAPE '\\'`,
    params: [pattern],
    narrows: false,
  };
}

/**
 * `page`: the first rows in sort order are wanted, so a filter that matches many rows is
 * checked row by row as the walk goes (it stops after a page); one that matches few drives the
 * query from its matches. `count`: every match is visited, so matches are collected once.
 */
export type QueryMode = 'page' | 'count';

/**
 * Where a query switches between starting from its matches, collecting them, and probing rows.
 * Exported so tests can force each plan on a small library; results must not depend on it.
 */
export const planning = {
  /** Above this share of a pair's rows, a class filter walks the rows and probes each one. */
  denseShare: 0.05,
  /** Up to this many full-text matches in the pair's runs, a search starts from its matches. */
  fewSearch: 20_000,
  /** Above this share of a run's examples matching, a search probes the index row by row. */
  denseSearchShare: 0.2,
};

interface Clause {
  sql: string;
  params: unknown[];
  /**
   * The clause collects its matches before the walk (so a sort index would not help), rather
   * than testing each row as it comes.
   */
  narrows: boolean;
}

function classClause(db: Db, scope: PairScope, f: Filter, mode: QueryMode): Clause {
  const cls = f.changeClass!;
  const criteria =
    f.criterion === undefined
      ? scope.criteria
      : scope.criteria.filter((criterion) => criterion === f.criterion);
  if (criteria.length === 0) return { sql: '0', params: [], narrows: true };
  const among = `pc.criterion IN (${criteria.map(() => '?').join(',')})`;
  const base = [scope.reportId, scope.pair, ...criteria];
  if (cls === 'unchanged') {
    // Unchanged is the absence of a class row: fewer rows than criteria means some unchanged.
    const stored = STORED_CLASSES.map((c) => `'${c}'`).join(',');
    return {
      sql: `(SELECT COUNT(*) FROM pair_classes pc WHERE pc.report_id = ? AND pc.pair = ? AND ${among}
              AND pc.class IN (${stored}) AND pc.example_id = pr.example_id) < ${criteria.length}`,
      params: base,
      narrows: false,
    };
  }
  const key =
    f.criterion === undefined
      ? JSON.stringify(['any', cls])
      : JSON.stringify(['class', f.criterion, cls]);
  const share = storedCount(db, scope, key) / Math.max(1, storedCount(db, scope, allKey));
  if (mode === 'page' && share > planning.denseShare)
    return {
      sql: `EXISTS (SELECT 1 FROM pair_classes pc WHERE pc.report_id = ? AND pc.pair = ? AND ${among}
              AND pc.class = ? AND pc.example_id = pr.example_id)`,
      params: [...base, cls],
      narrows: false,
    };
  return {
    sql: `pr.example_id IN (SELECT pc.example_id FROM pair_classes pc WHERE pc.report_id = ? AND pc.pair = ?
            AND ${among} AND pc.class = ?)`,
    params: [...base, cls],
    narrows: true,
  };
}

function searchClause(
  db: Db,
  scope: PairScope,
  { query, costly }: { query: string; costly: boolean },
  mode: QueryMode,
): Clause {
  const sides = (
    [
      ['pr.ref_rowid', scope.reference],
      ['pr.cand_rowid', scope.candidate],
    ] as const
  ).filter(([, side]) => side && side.firstRowid !== null) as [string, PairSide][];
  if (sides.length === 0) return { sql: '0', params: [], narrows: true };
  // Matches only within each side's rowid range: other runs' matches are never read.
  const matches = `SELECT rowid FROM examples_fts WHERE examples_fts MATCH ? AND rowid BETWEEN ? AND ?`;
  const range = (side: PairSide) => [query, side.firstRowid, side.lastRowid];
  const exact: Clause = {
    sql: `(${sides.map(([column]) => `${column} IN (${matches})`).join(' OR ')})`,
    params: sides.flatMap(([, side]) => range(side)),
    narrows: true,
  };
  // The first matches of each run, up to one more than "few": their count, and how far into
  // the run they reach, which gives their density there.
  const upTo = db.prepare(`SELECT COUNT(*) AS n, MAX(rowid) AS last FROM (${matches} LIMIT ?)`);
  let found = 0;
  let sampled = 0;
  for (const [, side] of sides) {
    if (found > planning.fewSearch) break;
    const first = upTo.get(...range(side), planning.fewSearch + 1 - found) as {
      n: number;
      last: number | null;
    };
    found += first.n;
    sampled += (first.last ?? side.lastRowid!) - side.firstRowid! + 1;
  }
  if (found <= planning.fewSearch)
    // Few matches: start from their example ids (the pair rows' key), then keep the exact test.
    return {
      sql: `pr.example_id IN (SELECT e.example_id FROM examples e WHERE e.rowid IN (${sides
        .map(() => matches)
        .join(' UNION ALL ')})) AND ${exact.sql}`,
      params: [...sides.flatMap(([, side]) => range(side)), ...exact.params],
      narrows: true,
    };
  // Many: dense ones are probed in the index row by row (a page then stops early); sparser ones
  // are collected once (the exact test).
  // A count visits every match anyway: collecting them once is its cheapest plan.
  // A prefix over many words costs a merge of all their lists on every probe: collect instead.
  if (mode === 'count' || costly || found / sampled <= planning.denseSearchShare) return exact;
  return {
    sql: `(${sides
      .map(
        ([column]) =>
          // FTS5 takes `rowid = NULL` as no rowid constraint at all: test for NULL first.
          `(${column} IS NOT NULL AND EXISTS (SELECT 1 FROM examples_fts WHERE examples_fts MATCH ? AND rowid = ${column}))`,
      )
      .join(' OR ')})`,
    params: sides.map(() => query),
    narrows: false,
  };
}

/** The WHERE clause (over `pair_rows pr`) of the explorer's filter, shared by pager and export. */
export function whereClause(db: Db, scope: PairScope, f: Filter, mode: QueryMode): Clause {
  const clauses = ['pr.report_id = ?', 'pr.pair = ?'];
  const params: unknown[] = [scope.reportId, scope.pair];
  let narrows = false;
  const add = (clause: Clause) => {
    clauses.push(clause.sql);
    params.push(...clause.params);
    narrows ||= clause.narrows;
  };
  const flags = [
    ['pr.output_changed', f.outputChanged],
    ['pr.behavior_changed', f.behaviorChanged],
    ['pr.input_mismatch', f.inputMismatch],
  ] as const;
  for (const [column, value] of flags)
    if (value !== undefined) add({ sql: `${column} = ?`, params: [value ? 1 : 0], narrows: false });
  if (f.side) add({ sql: 'pr.side = ?', params: [f.side], narrows: false });
  if (f.changeClass) add(classClause(db, scope, f, mode));
  const query = f.search ? expandedQuery(db, f.search) : null;
  const text = query ? searchClause(db, scope, query, mode) : null;
  const ids = f.search ? idClause(db, scope, f.search) : null;
  if (text && ids)
    // Either may match: the row is tested as the walk goes.
    add({
      sql: `(${text.sql} OR ${ids.sql})`,
      params: [...text.params, ...ids.params],
      narrows: false,
    });
  else if (text ?? ids) add((text ?? ids)!);
  else if (f.search && f.search.trim()) add({ sql: '0', params: [], narrows: true });
  return { sql: clauses.join(' AND '), params, narrows };
}

/**
 * Each row's classes: its class rows, 'unchanged' for every criterion without one. One query
 * for all the given ids (a page), in the criteria's order.
 */
export function classesOf(
  db: Db,
  scope: PairScope,
  ids: string[],
): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const id of ids)
    out.set(id, Object.fromEntries(scope.criteria.map((c) => [c, 'unchanged'])));
  if (ids.length === 0 || scope.criteria.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT example_id, criterion, class FROM pair_classes WHERE report_id = ? AND pair = ?
       AND criterion IN (${scope.criteria.map(() => '?').join(',')})
       AND class IN (${STORED_CLASSES.map(() => '?').join(',')})
       AND example_id IN (${ids.map(() => '?').join(',')})`,
    )
    .all(scope.reportId, scope.pair, ...scope.criteria, ...STORED_CLASSES, ...ids) as {
    example_id: string;
    criterion: string;
    class: string;
  }[];
  for (const r of rows) out.get(r.example_id)![r.criterion] = r.class;
  return out;
}
