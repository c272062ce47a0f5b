import type { ParsedInput } from '../../../shared/contract';
import type { Db } from '../db/open';
import { matchingInTwo, matchingRowids, searchRowids, type RowidSpan } from '../search/matches';
import { searchPending } from '../search/readiness';
import { exactTermsQuery } from '../search/terms';
import { classCode, FLAG, SIDE_MASK, SIDE_SHIFT, sideCode } from './codes';
import type { PairSide } from './compute';
import { allKey, countLookup } from './counts';
import { derived, type PairView } from './pair-cache';

type Filter = ParsedInput<'examples:page'>['filter'];

/**
 * A user's search as FTS5 syntax: every word must begin a word of the input or output (so a
 * word still being typed already finds), each word quoted, so their quotes and operators are
 * text, never syntax. Words are cut where the unicode61 tokenizer cuts them; null when the
 * search has no word characters at all.
 */
export function ftsQuery(search: string): string | null {
  const words = ftsWords(search);
  return words ? words.map((w) => `"${w}"*`).join(' ') : null;
}

/** A search's words, cut as `ftsQuery` cuts them; null when it has none. */
export function ftsWords(search: string): string[] | null {
  return search.match(/[\p{L}\p{N}\p{Mn}]+/gu);
}

/** Marks the rows whose example on this side is marked in `hit` (one byte per rowid of its span). */
function markRowids(
  view: PairView,
  side: PairSide,
  rowids: Float64Array,
  hit: Uint8Array,
  marks: Uint8Array,
): void {
  const first = side.firstRowid!;
  for (let k = 0; k < view.rows; k++) {
    const rowid = rowids[k]!;
    if (rowid >= first && rowid - first < hit.length && hit[rowid - first]) marks[k] = 1;
  }
}

/** Each byte with its ASCII capital letters lowered. */
const LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b));

function lowered(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) out[i] = LOWER[out[i]!]!;
  return out;
}

/** The pair's ids with their ASCII capitals lowered, made once per pair. */
const loweredIds = (view: PairView) => derived(view, 'ids-lowered', () => lowered(view.ids));

/**
 * Marks the rows whose example id contains the search, ignoring ASCII case (a search may name
 * an id: `syc-0035`, a promptfoo test's description). One pass of memmem over the ids with
 * their ASCII letters lowered, which UTF-8 allows: no byte of a multi-byte character is ASCII.
 */
function markIds(view: PairView, text: string, marks: Uint8Array): void {
  const ids = loweredIds(view);
  const needle = lowered(Buffer.from(text, 'utf8'));
  let k = 0;
  for (let at = ids.indexOf(needle); at >= 0;) {
    while (view.offsets[k + 1]! <= at) k++;
    if (at + needle.length <= view.offsets[k + 1]!) {
      marks[k] = 1;
      // One hit is enough: go on from the next id.
      at = ids.indexOf(needle, view.offsets[k + 1]);
    } else at = ids.indexOf(needle, at + 1);
  }
}

/** The sides of a pair whose run has examples, with their rows' keys. */
function searchedSides(view: PairView): [PairSide, Float64Array][] {
  return (
    [
      [view.reference, view.refRowids],
      [view.candidate, view.candRowids],
    ] as [PairSide | null, Float64Array][]
  ).filter(
    (side): side is [PairSide, Float64Array] =>
      !!side[0] && side[0].firstRowid !== null && side[0].lastRowid !== null,
  );
}

const searchKey = (search: string) => JSON.stringify(['search', search]);

/**
 * The rows a search matches: every word it types begins a word of either side's input or
 * output (through the full-text index, only within each side's run), or the whole search is
 * part of the example id. Kept per pair and search, so the next pages and the count reuse it.
 */
function searchMatches(db: Db, view: PairView, search: string): Uint8Array {
  return derived(view, searchKey(search), () => {
    const marks = new Uint8Array(view.rows);
    const words = ftsWords(search);
    if (words) {
      const sides = searchedSides(view);
      const spans = sides.map(([side]) => ({ first: side.firstRowid!, last: side.lastRowid! }));
      const hits = spans.length > 0 ? searchRowids(db, words, spans) : [];
      sides.forEach(([side, rowids], i) => markRowids(view, side, rowids, hits[i]!, marks));
    }
    markIds(view, search.trim(), marks);
    return marks;
  });
}

/**
 * Which of rows `ks` a filter that is a search alone matches, as `searchMatches` would mark
 * them, without finding all of its matches: each side's index is asked only over the key range
 * of these rows. A first page needs only its first rows, and a common word matches most of a
 * million examples, whose keys cost more to list and mark than to find. Null when this does
 * not apply: another condition, the search's matches already made, no word, or a run not in
 * the index yet (its scan answers instead).
 */
export function searchMatchesOf(
  db: Db,
  view: PairView,
  f: Filter,
  ks: readonly number[],
): Uint8Array | null {
  const search = f.search?.trim() ? f.search : undefined;
  if (!search || flagTest(f).mask !== 0 || f.changeClass) return null;
  const words = ftsWords(search);
  if (!words || view.memo.has(searchKey(search))) return null;
  const sides = searchedSides(view);
  const runs = sides.map(([side]) => side.runRowid);
  if (searchPending(db, runs)) return null;
  const marks = new Uint8Array(ks.length);
  // Each side's keys of these rows, and the range they lie in.
  const asked = sides.flatMap(([side, rowids]) => {
    const keys = ks
      .map((k) => rowids[k]!)
      .filter((key) => key >= side.firstRowid! && key <= side.lastRowid!);
    return keys.length > 0
      ? [{ rowids, span: { first: Math.min(...keys), last: Math.max(...keys) } }]
      : [];
  });
  if (asked.length > 0) {
    const query = exactTermsQuery(db, words);
    const spans = asked.map((side) => side.span);
    const hits =
      spans.length === 2 && (spans[0]!.last < spans[1]!.first || spans[1]!.last < spans[0]!.first)
        ? matchingInTwo(db, query, spans as [RowidSpan, RowidSpan])
        : matchingRowids(db, query, spans, false);
    asked.forEach(({ rowids, span }, s) =>
      ks.forEach((k, i) => {
        const key = rowids[k]!;
        if (key >= span.first && key <= span.last && hits[s]![key - span.first]) marks[i] = 1;
      }),
    );
  }
  const ids = loweredIds(view);
  const needle = lowered(Buffer.from(search.trim(), 'utf8'));
  ks.forEach((k, i) => {
    if (!marks[i] && ids.subarray(view.offsets[k], view.offsets[k + 1]).includes(needle))
      marks[i] = 1;
  });
  return marks;
}

/** The rows matching a filter (null: every row) and how many they are. */
export interface FilterMatches {
  matches: Uint8Array | null;
  count: number;
}

/** The flags byte's bits a filter tests, and the value they must have. */
function flagTest(f: Filter): { mask: number; want: number } {
  let mask = 0;
  let want = 0;
  const yesNo = [
    [FLAG.outputChanged, f.outputChanged],
    [FLAG.behaviorChanged, f.behaviorChanged],
    [FLAG.inputMismatch, f.inputMismatch],
  ] as const;
  for (const [bit, value] of yesNo) {
    if (value === undefined) continue;
    mask |= bit;
    if (value) want |= bit;
  }
  if (f.side) {
    mask |= SIDE_MASK;
    want |= sideCode(f.side) << SIDE_SHIFT;
  }
  return { mask, want };
}

/**
 * Per row, the byte a class condition tests and the value it must have: a criterion's own
 * class bytes, or 1 in a byte per row where any of several criteria has the class.
 */
function classTest(view: PairView, f: Filter, n: number): { bytes: Uint8Array; want: number } {
  if (!f.changeClass) return { bytes: new Uint8Array(n), want: 0 };
  const code = classCode(f.changeClass);
  const classes = view.criteria
    .map((criterion, c) => (f.criterion === undefined || criterion === f.criterion ? c : -1))
    .filter((c) => c >= 0)
    .map((c) => view.classes[c]!);
  if (classes.length === 1) return { bytes: classes[0]!, want: code };
  const hit = new Uint8Array(n);
  for (const cls of classes) for (let k = 0; k < n; k++) hit[k]! |= cls[k] === code ? 1 : 0;
  return { bytes: hit, want: 1 };
}

/** A filter's flags test (`flags & mask` must be `want`) and class test (`classes` must be `code`). */
interface Tests {
  flags: Uint8Array;
  mask: number;
  want: number;
  classes: Uint8Array;
  code: number;
}

/**
 * Keeps in `marks` (1 or 0 per row) the rows that pass both tests, and counts them. Each loop is
 * a function of its own, so its compiled form stays fit for every filter that reaches it.
 */
function keepPassing(marks: Uint8Array, t: Tests): number {
  const { flags, mask, want, classes, code } = t;
  let count = 0;
  for (let k = 0; k < marks.length; k++) {
    const keep = marks[k]! & +((flags[k]! & mask) === want) & +(classes[k] === code);
    marks[k] = keep;
    count += keep;
  }
  return count;
}

function markPassing(marks: Uint8Array, t: Tests): number {
  const { flags, mask, want, classes, code } = t;
  let count = 0;
  for (let k = 0; k < marks.length; k++) {
    const keep = +((flags[k]! & mask) === want) & +(classes[k] === code);
    marks[k] = keep;
    count += keep;
  }
  return count;
}

/**
 * One pass over the typed arrays for every condition at once, without a branch per row: at a
 * million rows `output changed` took 18–24 ms CPU as a pass per condition, ~4 ms as one. A
 * condition the filter does not have tests a zero byte against 0.
 */
function computeMatches(db: Db, view: PairView, f: Filter): FilterMatches {
  const search = f.search?.trim() ? f.search : undefined;
  const { mask, want } = flagTest(f);
  if (mask === 0 && !f.changeClass && !search) return { matches: null, count: view.rows };
  const n = view.rows;
  if (search && mask === 0 && !f.changeClass) {
    // The search's own marks, shared with its memo: no one writes to a filter's matches.
    const marks = searchMatches(db, view, search);
    let count = 0;
    for (let k = 0; k < n; k++) count += marks[k]!;
    return { matches: marks, count };
  }
  const cls = classTest(view, f, n);
  const tests = {
    flags: mask === 0 ? new Uint8Array(n) : view.flags,
    mask,
    want,
    classes: cls.bytes,
    code: cls.want,
  };
  if (search) {
    const marks = searchMatches(db, view, search).slice();
    return { matches: marks, count: keepPassing(marks, tests) };
  }
  const marks = new Uint8Array(n);
  return { matches: marks, count: markPassing(marks, tests) };
}

/** The explorer's filter over a pair's arrays, shared by the pager and the CSV export. */
export function filterMatches(db: Db, view: PairView, f: Filter): FilterMatches {
  const key = JSON.stringify([
    'filter',
    f.criterion ?? null,
    f.changeClass ?? null,
    f.outputChanged ?? null,
    f.behaviorChanged ?? null,
    f.side ?? null,
    f.inputMismatch ?? null,
    f.search ?? null,
  ]);
  return derived(view, key, () => computeMatches(db, view, f));
}

/** How many rows match: a stored count for a one-condition filter, else the filter's matches. */
export function countMatches(db: Db, view: PairView, f: Filter): number {
  const lookup = countLookup(f);
  if (!lookup) return filterMatches(db, view, f).count;
  const n = view.counts[lookup.key] ?? 0;
  return lookup.complement ? (view.counts[allKey] ?? 0) - n : n;
}
