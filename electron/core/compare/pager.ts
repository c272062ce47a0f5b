import type { ParsedInput, RequestOutput } from '../../../shared/contract';
import type { Db } from '../db/open';
import { BadRequestError, NotFoundError } from '../errors';

/** The contract's page input; scripts may leave out countTotal (counted by default). */
type PageInput = Omit<ParsedInput<'examples:page'>, 'countTotal'> & { countTotal?: boolean };
type PageOutput = RequestOutput<'examples:page'>;

interface RawPairRow {
  example_id: string;
  side: 'both' | 'reference' | 'candidate';
  input_mismatch: number;
  output_changed: number;
  behavior_changed: number;
  classes: string;
  ref_fields: string | null;
  cand_fields: string | null;
  input: string | null;
}

/**
 * A user's search as FTS5 syntax: every word must appear (in input or output), each word quoted,
 * so their quotes and operators are text, never syntax. Words are cut where the unicode61
 * tokenizer cuts them; null when the search has no word characters at all.
 */
export function ftsQuery(search: string): string | null {
  const words = search.match(/[\p{L}\p{N}\p{Mn}]+/gu);
  return words ? words.map((w) => `"${w}"`).join(' ') : null;
}

export function whereClause(input: Pick<PageInput, 'reportKey' | 'pair' | 'filter'>): {
  sql: string;
  params: unknown[];
} {
  const clauses = ['pr.report_key = ?', 'pr.pair = ?'];
  const params: unknown[] = [input.reportKey, input.pair];
  const f = input.filter;
  if (f.outputChanged !== undefined) {
    clauses.push('pr.output_changed = ?');
    params.push(f.outputChanged ? 1 : 0);
  }
  if (f.behaviorChanged !== undefined) {
    clauses.push('pr.behavior_changed = ?');
    params.push(f.behaviorChanged ? 1 : 0);
  }
  if (f.side) {
    clauses.push('pr.side = ?');
    params.push(f.side);
  }
  if (f.inputMismatch !== undefined) {
    clauses.push('pr.input_mismatch = ?');
    params.push(f.inputMismatch ? 1 : 0);
  }
  if (f.changeClass) {
    // A membership test against the class index, not a per-row EXISTS: SQLite can then start
    // from the (often few) matching ids instead of probing every row of the pair.
    clauses.push(
      `pr.example_id IN (SELECT pc.example_id FROM pair_classes pc WHERE pc.report_key = ? AND pc.pair = ?
         ${f.criterion ? 'AND pc.criterion = ?' : ''} AND pc.class = ?)`,
    );
    params.push(input.reportKey, input.pair);
    if (f.criterion) params.push(f.criterion);
    params.push(f.changeClass);
  }
  const query = f.search ? ftsQuery(f.search) : null;
  if (query) {
    clauses.push(`(pr.ref_rowid IN (SELECT rowid FROM examples_fts WHERE examples_fts MATCH ?)
      OR pr.cand_rowid IN (SELECT rowid FROM examples_fts WHERE examples_fts MATCH ?))`);
    params.push(query, query);
  } else if (f.search && f.search.trim()) {
    clauses.push('0');
  }
  return { sql: clauses.join(' AND '), params };
}

/**
 * Sorted pages walk the matching index, where SQLite's planner would sort every row first;
 * not when a class or search filter already narrows the rows (then sorting the few is cheaper).
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

/** `after` is a `next` this pager made; anything else (a forged or stale cursor) is refused. */
function readCursor(after: string): [number | string, string] {
  let cursor: unknown;
  try {
    cursor = JSON.parse(after);
  } catch {
    cursor = null;
  }
  if (
    Array.isArray(cursor) &&
    cursor.length === 2 &&
    (typeof cursor[0] === 'number' || typeof cursor[0] === 'string') &&
    typeof cursor[1] === 'string'
  ) {
    return cursor as [number | string, string];
  }
  throw new BadRequestError(
    'That page cursor was not made by this list: start again from the first page.',
  );
}

/**
 * One page of a pair's examples, filtered and sorted in SQL and paged by key (never OFFSET):
 * `next` is the (sort value, example id) of the last row, opaque to the caller.
 */
export function pageExamples(db: Db, input: PageInput): PageOutput {
  const exists = db.prepare(`SELECT 1 FROM reports WHERE key = ?`).get(input.reportKey);
  if (!exists) throw new NotFoundError('That comparison is no longer cached: run it again.');
  const where = whereClause(input);
  const column = sortColumns[input.sort];
  const direction = input.descending ? 'DESC' : 'ASC';
  const op = input.descending ? '<' : '>';
  const params = [...where.params];
  let keyset = '';
  if (input.after) {
    const [value, id] = readCursor(input.after);
    keyset =
      input.sort === 'example_id'
        ? `AND pr.example_id ${op} ?`
        : `AND (${column}, pr.example_id) ${op} (?, ?)`;
    params.push(...(input.sort === 'example_id' ? [id] : [value, id]));
  }
  const rows = db
    .prepare(
      `SELECT pr.example_id, pr.side, pr.input_mismatch, pr.output_changed, pr.behavior_changed, pr.classes,
              re.fields AS ref_fields, ce.fields AS cand_fields, COALESCE(re.input, ce.input) AS input
       FROM pair_rows pr ${input.filter.changeClass || input.filter.search ? '' : sortIndexes[input.sort]}
       LEFT JOIN examples re ON re.rowid = pr.ref_rowid
       LEFT JOIN examples ce ON ce.rowid = pr.cand_rowid
       WHERE ${where.sql} ${keyset}
       ORDER BY ${column} ${direction}, pr.example_id ${direction}
       LIMIT ?`,
    )
    .all(...params, input.limit) as RawPairRow[];
  // Counting every match costs as much as a page or more: only a first page asked for it pays.
  const total = input.after || input.countTotal === false ? null : countExamples(db, input).total;
  const last = rows.at(-1);
  const next =
    rows.length === input.limit && last
      ? JSON.stringify([
          input.sort === 'example_id' ? last.example_id : last[input.sort],
          last.example_id,
        ])
      : null;
  return {
    total,
    next,
    rows: rows.map((r) => {
      const classes = JSON.parse(r.classes) as Record<
        string,
        PageOutput['rows'][number]['classes'][string]
      >;
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

export function countExamples(
  db: Db,
  input: Pick<PageInput, 'reportKey' | 'pair' | 'filter'>,
): { total: number } {
  const where = whereClause(input);
  const row = db
    .prepare(`SELECT COUNT(*) AS n FROM pair_rows pr WHERE ${where.sql}`)
    .get(...where.params) as { n: number };
  return { total: row.n };
}

export function exampleDetail(
  db: Db,
  input: ParsedInput<'examples:detail'>,
): RequestOutput<'examples:detail'> {
  const row = db
    .prepare(
      `SELECT ref_rowid, cand_rowid, classes FROM pair_rows WHERE report_key = ? AND pair = ? AND example_id = ?`,
    )
    .get(input.reportKey, input.pair, input.exampleId) as
    { ref_rowid: number | null; cand_rowid: number | null; classes: string } | undefined;
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
    classes: JSON.parse(row.classes) as RequestOutput<'examples:detail'>['classes'],
  };
}
