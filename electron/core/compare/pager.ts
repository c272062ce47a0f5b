import type { ParsedInput, RequestOutput } from '../../../shared/contract';
import type { Db } from '../db/open';
import { BadRequestError, NotFoundError } from '../errors';
import { classesOf, countFromSummary, pairScope, whereClause, type PairScope } from './filters';

/** The contract's page input; scripts may leave out countTotal (counted by default). */
type PageInput = Omit<ParsedInput<'examples:page'>, 'countTotal'> & { countTotal?: boolean };
type PageOutput = RequestOutput<'examples:page'>;

interface RawPairRow {
  example_id: string;
  side: 'both' | 'reference' | 'candidate';
  input_mismatch: number;
  output_changed: number;
  behavior_changed: number;
  ref_fields: string | null;
  cand_fields: string | null;
  input: string | null;
}

function scopeOf(db: Db, reportKey: string, pair: number): PairScope {
  const scope = pairScope(db, reportKey, pair);
  if (!scope) throw new NotFoundError('That comparison is no longer cached: run it again.');
  return scope;
}

/**
 * Sorted pages walk the matching index, where SQLite's planner would sort every row first;
 * not when a filter collects its (few) matches first (then sorting those is cheaper).
 */
const sortIndexes = {
  example_id: '',
  output_changed: 'INDEXED BY pair_rows_by_output',
  behavior_changed: 'INDEXED BY pair_rows_by_behavior',
} as const;

const sortColumns = {
  example_id: 'pr.example_id',
  output_changed: 'pr.output_changed',
  behavior_changed: 'pr.behavior_changed',
} as const;

type Cursor = [number | string | null, string];

/** `after` is a `next` this pager made; anything else (a forged or stale cursor) is refused. */
function readCursor(after: string): Cursor {
  let cursor: unknown;
  try {
    cursor = JSON.parse(after);
  } catch {
    cursor = null;
  }
  if (
    Array.isArray(cursor) &&
    cursor.length === 2 &&
    (typeof cursor[0] === 'number' || typeof cursor[0] === 'string' || cursor[0] === null) &&
    typeof cursor[1] === 'string'
  ) {
    return cursor as Cursor;
  }
  throw new BadRequestError(
    'That page cursor was not made by this list: start again from the first page.',
  );
}

const ROW_COLUMNS = `pr.example_id, pr.side, pr.input_mismatch, pr.output_changed, pr.behavior_changed,
  re.fields AS ref_fields, ce.fields AS cand_fields, COALESCE(re.input, ce.input) AS input`;
const ROW_JOINS = `LEFT JOIN examples re ON re.rowid = pr.ref_rowid
  LEFT JOIN examples ce ON ce.rowid = pr.cand_rowid`;

type Where = ReturnType<typeof whereClause>;

/** Rows in the order of a flag or the example id, after the cursor: one indexed walk. */
function pageByColumn(db: Db, input: PageInput, where: Where, after: Cursor | null) {
  const sort = input.sort as keyof typeof sortColumns;
  const column = sortColumns[sort];
  const direction = input.descending ? 'DESC' : 'ASC';
  const op = input.descending ? '<' : '>';
  const params = [...where.params];
  let keyset = '';
  if (after) {
    const [value, id] = after;
    keyset =
      sort === 'example_id'
        ? `AND pr.example_id ${op} ?`
        : `AND (${column}, pr.example_id) ${op} (?, ?)`;
    params.push(...(sort === 'example_id' ? [id] : [value, id]));
  }
  const rows = db
    .prepare(
      `SELECT ${ROW_COLUMNS}
       FROM pair_rows pr ${where.narrows ? '' : sortIndexes[sort]}
       ${ROW_JOINS}
       WHERE ${where.sql} ${keyset}
       ORDER BY ${column} ${direction}, pr.example_id ${direction}
       LIMIT ?`,
    )
    .all(...params, input.limit) as RawPairRow[];
  const last = rows.at(-1);
  const next: Cursor | null =
    rows.length === input.limit && last
      ? [sort === 'example_id' ? last.example_id : last[sort], last.example_id]
      : null;
  return { rows, next };
}

/**
 * Rows by how far they moved under one criterion: first those with a difference, in the order
 * of (difference, example id) along pair_deltas' key, then those without one (a category, a
 * missing or errored side) by example id. A cursor's value is the difference, or null once the
 * page reached the rows without one.
 */
function pageByDelta(
  db: Db,
  input: PageInput & { reportId: number },
  where: Where,
  after: Cursor | null,
) {
  const criterion = input.sortCriterion ?? '';
  const direction = input.descending ? 'DESC' : 'ASC';
  const op = input.descending ? '<' : '>';
  const rows: (RawPairRow & { delta: number | null })[] = [];
  const inDeltas = after === null || after[0] !== null;
  if (inDeltas) {
    const params: unknown[] = [input.reportId, input.pair, criterion, ...where.params];
    let keyset = '';
    if (after) {
      keyset = `AND (d.delta, d.example_id) ${op} (?, ?)`;
      params.push(after[0], after[1]);
    }
    rows.push(
      ...(db
        .prepare(
          `SELECT ${ROW_COLUMNS}, d.delta AS delta
           FROM pair_deltas d
           JOIN pair_rows pr ON pr.report_id = d.report_id AND pr.pair = d.pair AND pr.example_id = d.example_id
           ${ROW_JOINS}
           WHERE d.report_id = ? AND d.pair = ? AND d.criterion = ? AND ${where.sql} ${keyset}
           ORDER BY d.delta ${direction}, d.example_id ${direction}
           LIMIT ?`,
        )
        .all(...params, input.limit) as (RawPairRow & { delta: number })[]),
    );
  }
  if (rows.length < input.limit) {
    const params: unknown[] = [...where.params, criterion];
    let keyset = '';
    if (after && !inDeltas) {
      keyset = 'AND pr.example_id > ?';
      params.push(after[1]);
    }
    rows.push(
      ...(db
        .prepare(
          `SELECT ${ROW_COLUMNS}, NULL AS delta
           FROM pair_rows pr
           ${ROW_JOINS}
           WHERE ${where.sql}
             AND NOT EXISTS (SELECT 1 FROM pair_deltas d INDEXED BY pair_deltas_by_example
               WHERE d.report_id = pr.report_id AND d.pair = pr.pair AND d.criterion = ?
               AND d.example_id = pr.example_id) ${keyset}
           ORDER BY pr.example_id
           LIMIT ?`,
        )
        .all(...params, input.limit - rows.length) as (RawPairRow & { delta: null })[]),
    );
  }
  const last = rows.at(-1);
  const next: Cursor | null =
    rows.length === input.limit && last ? [last.delta, last.example_id] : null;
  return { rows, next };
}

/**
 * One page of a pair's examples, filtered and sorted in SQL and paged by key (never OFFSET):
 * `next` is the (sort value, example id) of the last row, opaque to the caller.
 */
export function pageExamples(db: Db, input: PageInput): PageOutput {
  const scope = scopeOf(db, input.reportKey, input.pair);
  const where = whereClause(db, scope, input.filter, 'page');
  const after = input.after ? readCursor(input.after) : null;
  const { rows, next } =
    input.sort === 'delta'
      ? pageByDelta(db, { ...input, reportId: scope.reportId }, where, after)
      : pageByColumn(db, input, where, after);
  // Counting every match costs as much as a page or more: only a first page asked for it pays.
  const total = input.after || input.countTotal === false ? null : countExamples(db, input).total;
  const classesById = classesOf(
    db,
    scope,
    rows.map((r) => r.example_id),
  );
  return {
    total,
    next: next ? JSON.stringify(next) : null,
    rows: rows.map((r) => {
      const classes = classesById.get(r.example_id) as PageOutput['rows'][number]['classes'];
      const refFields = r.ref_fields ? (JSON.parse(r.ref_fields) as Record<string, unknown>) : {};
      const candFields = r.cand_fields
        ? (JSON.parse(r.cand_fields) as Record<string, unknown>)
        : {};
      const values: PageOutput['rows'][number]['values'] = {};
      for (const criterion of Object.keys(classes)) {
        values[criterion] = {
          reference: refFields[criterion] ?? null,
          candidate: candFields[criterion] ?? null,
        };
      }
      return {
        example_id: r.example_id,
        side: r.side,
        input_mismatch: r.input_mismatch === 1,
        output_changed: r.output_changed === 1,
        behavior_changed: r.behavior_changed === 1,
        classes,
        values,
        input: r.input ?? '',
      };
    }),
  };
}

/** Answered from the pair's stored counts when the filter has one condition, else in SQL. */
export function countExamples(
  db: Db,
  input: Pick<PageInput, 'reportKey' | 'pair' | 'filter'>,
): { total: number } {
  const scope = scopeOf(db, input.reportKey, input.pair);
  const stored = countFromSummary(db, scope, input.filter);
  if (stored !== null) return { total: stored };
  const where = whereClause(db, scope, input.filter, 'count');
  const row = db
    .prepare(`SELECT COUNT(*) AS n FROM pair_rows pr WHERE ${where.sql}`)
    .get(...where.params) as { n: number };
  return { total: row.n };
}

export function exampleDetail(
  db: Db,
  input: ParsedInput<'examples:detail'>,
): RequestOutput<'examples:detail'> {
  const scope = scopeOf(db, input.reportKey, input.pair);
  const row = db
    .prepare(
      `SELECT ref_rowid, cand_rowid FROM pair_rows WHERE report_id = ? AND pair = ? AND example_id = ?`,
    )
    .get(scope.reportId, input.pair, input.exampleId) as
    { ref_rowid: number | null; cand_rowid: number | null } | undefined;
  if (!row) throw new NotFoundError(`Example "${input.exampleId}" is not in this comparison.`);
  const side = (rowid: number | null) => {
    if (rowid === null) return null;
    const e = db
      .prepare(
        `SELECT r.id AS run_id, e.input, e.output, e.fields, e.target, e.error
         FROM examples e JOIN runs r ON r.rowid = e.run_rowid WHERE e.rowid = ?`,
      )
      .get(rowid) as
      | {
          run_id: string;
          input: string;
          output: string;
          fields: string;
          target: string | null;
          error: string | null;
        }
      | undefined;
    return e ? { ...e, fields: JSON.parse(e.fields) as Record<string, unknown> } : null;
  };
  return {
    example_id: input.exampleId,
    reference: side(row.ref_rowid),
    candidate: side(row.cand_rowid),
    classes: classesOf(db, scope, [input.exampleId]).get(
      input.exampleId,
    ) as RequestOutput<'examples:detail'>['classes'],
  };
}
