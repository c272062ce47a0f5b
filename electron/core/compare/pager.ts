import type { CriterionClass } from '../../../shared/compare/types';
import type { ParsedInput, RequestOutput } from '../../../shared/contract';
import type { Db } from '../db/open';
import { BadRequestError, NotFoundError } from '../errors';
import { CLASSES, FLAG, NO_ROWID, sideOf } from './codes';
import { countMatches, filterMatches, searchMatchesOf } from './filters';
import {
  cursorAt,
  flagOf,
  flagValue,
  flagWalk,
  orderLength,
  orderMade,
  sortOrder,
  stepAfter,
  stepAt,
  type Cursor,
  type SortOrder,
} from './order';
import { findId, type RowCodes, type RowKeys } from './pair-arrays';
import { openPair, type PairView } from './pair-cache';
import type { PartialRow, Unavailable, Wanted } from '../texts/blocks';
import { runOfKey } from '../texts/keys';
import { TextReader } from '../texts/read';
import { topRanked } from './top-ranked';

/** The contract's page input; scripts may leave out countTotal (counted by default). */
type PageInput = Omit<ParsedInput<'examples:page'>, 'countTotal'> & { countTotal?: boolean };
type PageOutput = RequestOutput<'examples:page'>;

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

/** Row i's class under every criterion of the pair, in the report's order. */
function classesAt(view: PairView, codes: RowCodes, i: number): Record<string, CriterionClass> {
  return Object.fromEntries(view.criteria.map((c, j) => [c, CLASSES[codes.classes[j]![i]!]!]));
}

/** What a page shows of each side of its rows: the criteria's values, and one input. */
interface PageTexts {
  ref: Map<number, PartialRow>;
  cand: Map<number, PartialRow>;
}

const INPUT_ONLY: Wanted = { input: true, output: false };
const NO_TEXTS: Wanted = { input: false, output: false };

/**
 * The stored examples behind a page's rows, with no output and only the inputs shown: each
 * row's reference with its input, its candidate without, then the candidates whose input is
 * shown after all (no reference, or one whose texts cannot be read, and the same input).
 */
function pageTexts(db: Db, keys: RowKeys, codes: RowCodes): PageTexts {
  const reader = new TextReader(db);
  const present = (of: number[]) => of.filter((key) => key !== NO_ROWID);
  const ref = reader.rows(present(keys.ref), INPUT_ONLY);
  const cand = reader.rows(present(keys.cand), NO_TEXTS);
  const candInputs = keys.cand.filter((_, i) => {
    const r = ref.get(keys.ref[i]!);
    return !r || (r.unavailable !== null && (codes.flags[i]! & FLAG.inputMismatch) === 0);
  });
  const shown = reader.rows(present(candInputs), INPUT_ONLY);
  for (const [key, row] of shown) cand.set(key, row);
  return { ref, cand };
}

/**
 * The input a page row shows: the reference's, else the candidate's when the two sides' inputs
 * are the same (or there is no reference). When the one to show could not be read, the row
 * says why rather than showing another side's different input or an empty one.
 */
function rowInput(
  ref: PartialRow | undefined,
  cand: PartialRow | undefined,
  mismatch: boolean,
): { input: string; input_unavailable: Unavailable | null } {
  if (ref && !ref.unavailable) return { input: ref.input!, input_unavailable: null };
  if (cand && !cand.unavailable && (!ref || !mismatch))
    return { input: cand.input!, input_unavailable: null };
  return { input: '', input_unavailable: ref?.unavailable ?? cand?.unavailable ?? null };
}

/** The rows of a page, from every row the filter matches. */
function filteredPage(db: Db, view: PairView, order: SortOrder, input: PageInput): number[] {
  const { matches, count } = filterMatches(db, view, input.filter);
  const length = count === 0 ? 0 : orderLength(order);
  const page: number[] = [];
  for (
    let i = input.after
      ? stepAfter(view, order, input.sort, input.descending, readCursor(input.after))
      : 0;
    i < length && page.length < input.limit;
    i++
  ) {
    const k = stepAt(order, input.descending, i);
    if (!matches || matches[k]) page.push(k);
  }
  return page;
}

/** How many rows, per row of the page, a search's first page looks through before it gives up. */
const FIRST_ROWS_PER_ROW = 8;

/**
 * A search's first page asked without its count, from the first rows in order alone
 * (`searchMatchesOf`): a common word fills it from a few hundred rows. `firstSteps(count)` gives
 * the rows at the walk's first `count` steps, of `length`. Null when this does not apply, or
 * when those rows hold less than a page and the order has more: then every match is found, as
 * for any filter.
 */
function firstSearchPage(
  db: Db,
  view: PairView,
  firstSteps: (count: number) => number[],
  length: number,
  input: PageInput,
): number[] | null {
  if (input.after || input.countTotal !== false) return null;
  const ks = firstSteps(Math.min(length, FIRST_ROWS_PER_ROW * input.limit));
  const marks = searchMatchesOf(db, view, input.filter, ks);
  if (!marks) return null;
  const page = ks.filter((_, i) => marks[i]).slice(0, input.limit);
  return page.length === input.limit || ks.length === length ? page : null;
}

/** A first page's rows and their sort values, from which its cursor is made. */
type FirstPage = { page: number[] } & Pick<SortOrder, 'value'>;

/**
 * A first page sorted by a difference whose order is not made yet: its rows picked by one pass
 * over that criterion's differences (`topRanked`), the same rows as the order's walk, which is
 * made only when a later page needs it. Null when this does not apply: a cursor, the order made
 * already, a criterion the pair lacks, or a search (whose first page walks the order's first
 * rows, `firstSearchPage`).
 */
function firstByDifference(db: Db, view: PairView, input: PageInput): FirstPage | null {
  const { sort, sortCriterion: criterion } = input;
  if (input.after || sort !== 'delta' || orderMade(view, sort, criterion)) return null;
  if (input.filter.search?.trim()) return null;
  const c = criterion === undefined ? -1 : view.criteria.indexOf(criterion);
  if (c < 0) return null;
  const { matches, count } = filterMatches(db, view, input.filter);
  if (count === 0) return { page: [], value: () => null };
  const { rows, value } = topRanked(
    (backwards, visit) => view.eachDelta(c, backwards, visit),
    matches,
    input.limit,
    input.descending,
  );
  return { page: rows, value };
}

/**
 * A first page sorted by a flag whose order is not made yet: its rows found by scanning the flags
 * from the end the walk starts at (`flagWalk`), the same rows as the order's walk, which is made
 * only when a later page needs it. A search's first page takes the walk's first rows the same
 * way (`firstSearchPage`), or when that does not apply (they hold less than a page, or the
 * search's matches are made already) walks the flags over every match, as any filter's does.
 * Null for another sort, a cursor, or the order made already.
 */
function firstByFlag(db: Db, view: PairView, input: PageInput): FirstPage | null {
  const bit = flagOf(input.sort);
  if (input.after || bit === null || orderMade(view, input.sort, undefined)) return null;
  const { flags } = view;
  const value = flagValue(flags, bit);
  const walk = (keep: Uint8Array | null, count: number) =>
    flagWalk(flags, bit, keep, count, input.descending);
  const searched = input.filter.search?.trim()
    ? firstSearchPage(db, view, (count) => walk(null, count), view.rows, input)
    : null;
  if (searched) return { page: searched, value };
  const { matches, count } = filterMatches(db, view, input.filter);
  return { page: count === 0 ? [] : walk(matches, input.limit), value };
}

/** A page's rows, and how to make the cursor after its last. */
function pageRows(db: Db, view: PairView, input: PageInput): FirstPage {
  const first = firstByDifference(db, view, input) ?? firstByFlag(db, view, input);
  if (first) return first;
  const order = sortOrder(view, input.sort, input.sortCriterion);
  const firstSteps = (count: number) =>
    Array.from({ length: count }, (_, i) => stepAt(order, input.descending, i));
  const page =
    firstSearchPage(db, view, firstSteps, orderLength(order), input) ??
    filteredPage(db, view, order, input);
  return { page, value: order.value };
}

/**
 * One page of a pair's examples, filtered and sorted over the pair's arrays (kept decoded
 * between requests) and paged by key: `next` is the (sort value, example id) of the last row,
 * opaque to the caller. Only the page's examples are read from the database.
 */
export function pageExamples(db: Db, input: PageInput): PageOutput {
  const view = openPair(db, input.reportKey, input.pair);
  const rows = pageRows(db, view, input);
  const { page } = rows;
  // A first page reads its rows' ids and keys alone, not the arrays that hold every row's.
  const keys = view.rowsAt(page);
  const last = page.length - 1;
  const next =
    page.length === input.limit && last >= 0
      ? JSON.stringify(cursorAt(rows, input.sort, page[last]!, keys.ids[last]!))
      : null;
  // Only a first page that asked for it gets the count.
  const total =
    input.after || input.countTotal === false ? null : countMatches(db, view, input.filter);
  // Likewise their flags and classes, not every row's of the criteria the query did not read.
  const codes = view.codesAt(page);
  const texts = pageTexts(db, keys, codes);
  return {
    total,
    next,
    rows: page.map((_, i) => {
      const ref = texts.ref.get(keys.ref[i]!);
      const cand = texts.cand.get(keys.cand[i]!);
      const classes = classesAt(view, codes, i);
      const values: PageOutput['rows'][number]['values'] = {};
      for (const criterion of view.criteria) {
        values[criterion] = {
          reference: ref?.fields[criterion] ?? null,
          candidate: cand?.fields[criterion] ?? null,
        };
      }
      const flags = codes.flags[i]!;
      const mismatch = (flags & FLAG.inputMismatch) !== 0;
      return {
        example_id: keys.ids[i]!,
        side: sideOf(flags),
        input_mismatch: mismatch,
        output_changed: (flags & FLAG.outputChanged) !== 0,
        behavior_changed: (flags & FLAG.behaviorChanged) !== 0,
        classes,
        values,
        ...rowInput(ref, cand, mismatch),
      };
    }),
  };
}

/** Answered from the pair's stored counts when the filter has one condition, else counted. */
export function countExamples(
  db: Db,
  input: Pick<PageInput, 'reportKey' | 'pair' | 'filter'>,
): { total: number } {
  return { total: countMatches(db, openPair(db, input.reportKey, input.pair), input.filter) };
}

/** An example's position in a compared pair, or a "not in this comparison" error. */
export function pairExample(
  db: Db,
  input: { reportKey: string; pair: number; exampleId: string },
): { view: PairView; k: number } {
  const view = openPair(db, input.reportKey, input.pair);
  const k = findId(view, input.exampleId);
  if (k < 0) throw new NotFoundError(`Example "${input.exampleId}" is not in this comparison.`);
  return { view, k };
}

export function exampleDetail(
  db: Db,
  input: ParsedInput<'examples:detail'>,
): RequestOutput<'examples:detail'> {
  const { view, k } = pairExample(db, input);
  const texts = new TextReader(db);
  const runId = db.prepare(`SELECT id FROM runs WHERE rowid = ?`).pluck();
  const side = (key: number) => {
    if (key === NO_ROWID) return null;
    const text = texts.texts([key]).get(key);
    const run_id = runId.get(runOfKey(key)) as string | undefined;
    if (!text || run_id === undefined) return null;
    return {
      run_id,
      input: text.input,
      output: text.output,
      fields: text.fields,
      target: text.target,
      error: text.error,
      unavailable: text.unavailable,
    };
  };
  return {
    example_id: input.exampleId,
    reference: side(view.refRowids[k]!),
    candidate: side(view.candRowids[k]!),
    classes: classesAt(view, view.codesAt([k]), 0),
  };
}
