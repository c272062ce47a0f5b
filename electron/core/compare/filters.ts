import type { ParsedInput } from '../../../shared/contract';
import type { Db } from '../db/open';
import { matchingInSpans, searchRowids } from '../search/matches';
import { searchPending } from '../search/readiness';
import { exactTermsQuery } from '../search/terms';
import { classCode, FLAG, SIDE_MASK, SIDE_SHIFT, sideCode } from './codes';
import type { PairSide } from './compute';
import { allKey, countLookup } from './counts';
import type { PairArrays } from './pair-arrays';
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

/**
 * Marks the rows whose example on this side is marked in `hit` (one byte per rowid of its
 * span), reading the side's keys a chunk at a time (`eachKey`).
 */
function markRowids(
  view: PairView,
  side: PairSide,
  name: SideName,
  hit: Uint8Array,
  marks: Uint8Array,
): void {
  const first = side.firstRowid!;
  // A side the search does not match needs no pass over its keys (a word absent from a run).
  if (hit.indexOf(1) < 0) return;
  view.eachKey(name, (rowids, from) => {
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      if (rowid >= first && rowid - first < hit.length && hit[rowid - first]) marks[from + i] = 1;
    }
  });
}

/** Each byte with its ASCII capital letters lowered. */
const LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b));

function lowered(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) out[i] = LOWER[out[i]!]!;
  return out;
}

/**
 * Lowers the ASCII capitals of `bytes` in place, four bytes at a time: in each byte whose low
 * seven bits are at least "A" and at most "Z" and whose top bit is clear, bit 5 is set. A byte
 * at a time took ~10 ms per million ids, and a search lowers them every time it runs.
 */
function lowerInPlace(bytes: Buffer): void {
  const words = Math.floor((bytes.byteOffset % 4 === 0 ? bytes.length : 0) / 4);
  const w32 = new Int32Array(bytes.buffer, bytes.byteOffset, words);
  for (let i = 0; i < words; i++) {
    const w = w32[i]!;
    const low = w & 0x7f7f7f7f;
    const upper = (low + 0x3f3f3f3f) & ~(low + 0x25252525) & ~w & 0x80808080;
    w32[i] = w | (upper >>> 2);
  }
  for (let i = 4 * words; i < bytes.length; i++) bytes[i] = LOWER[bytes[i]!]!;
}

/** Past this many places where a search lies in the ids, the ids are read whole to mark them. */
const MAX_ID_HITS = 1 << 16;

/**
 * Marks the rows whose example id contains the search, ignoring ASCII case (a search may name
 * an id: `syc-0035`, a promptfoo test's description). A pass of memmem over the ids with their
 * ASCII letters lowered, which UTF-8 allows: no byte of a multi-byte character is ASCII. The
 * ids are read a chunk at a time (consecutive chunks overlap by the search's length less one, so
 * each place is found once, in the first chunk that holds it whole), then the places are
 * matched to ids in a pass over the offsets: an id is marked when one lies inside it.
 */
export function markIds(view: PairArrays, text: string, marks: Uint8Array): void {
  const needle = lowered(Buffer.from(text, 'utf8'));
  const places: number[] = [];
  view.eachIdChunk(needle.length - 1, (ids, at) => {
    lowerInPlace(ids);
    for (let p = ids.indexOf(needle); p >= 0; p = ids.indexOf(needle, p + 1))
      if (places.length <= MAX_ID_HITS) places.push(at + p);
  });
  if (places.length > MAX_ID_HITS) return markIdsWhole(view, needle, marks);
  if (places.length === 0) return;
  let next = 0;
  view.eachOffset((offsets, from) => {
    for (let i = 0; i + 1 < offsets.length && next < places.length; i++) {
      const end = offsets[i + 1]!;
      for (; next < places.length && places[next]! < end; next++)
        if (places[next]! + needle.length <= end) marks[from + i] = 1;
    }
  });
}

/** `markIds` for a search in most ids: one walk of the ids read whole, a hit per id at most. */
function markIdsWhole(view: PairArrays, needle: Buffer, marks: Uint8Array): void {
  const ids = Buffer.from(view.ids);
  lowerInPlace(ids);
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

/** Which side of a pair's rows a key is of. */
type SideName = 'ref' | 'cand';

/**
 * The sides of a pair whose run has examples, each with its name: its rows' keys are read only
 * where they are used (`view.refRowids`, or a few rows' by `rowsAt`).
 */
function searchedSides(view: PairView): [PairSide, SideName][] {
  return (
    [
      [view.reference, 'ref'],
      [view.candidate, 'cand'],
    ] as [PairSide | null, SideName][]
  ).filter(
    (side): side is [PairSide, SideName] =>
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
      sides.forEach(([side, name], i) => markRowids(view, side, name, hits[i]!, marks));
    }
    markIds(view, search.trim(), marks);
    return marks;
  });
}

/**
 * Which of rows `ks` a filter that is a search alone matches, as `searchMatches` would mark
 * them, without finding all of its matches: each side's index is asked only over the key range
 * of these rows (`matchingInSpans`), and only these rows' ids and keys are read (`rowsAt`), not
 * the pair's arrays that hold every row's (26 MB at a million examples, first touched here: most
 * of such a page's time on a machine where fresh memory is dear). A first page needs only its
 * first rows, and a common word matches most of a million examples, whose keys cost more to
 * list and mark than to find. Null when this does not apply: another condition, the search's
 * matches already made, no word, or a run not in the index yet (its scan answers instead).
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
  const rows = view.rowsAt(ks);
  const marks = new Uint8Array(ks.length);
  // Each side's keys of these rows, and the range they lie in.
  const asked = sides.flatMap(([side, name]) => {
    const of = rows[name];
    const keys = of.filter((key) => key >= side.firstRowid! && key <= side.lastRowid!);
    return keys.length > 0
      ? [{ of, span: { first: Math.min(...keys), last: Math.max(...keys) } }]
      : [];
  });
  if (asked.length > 0) {
    const spans = asked.map((side) => side.span);
    const hits = matchingInSpans(db, exactTermsQuery(db, words), spans);
    asked.forEach(({ of, span }, s) =>
      of.forEach((key, i) => {
        if (key >= span.first && key <= span.last && hits[s]![key - span.first]) marks[i] = 1;
      }),
    );
  }
  const needle = lowered(Buffer.from(search.trim(), 'utf8'));
  rows.ids.forEach((id, i) => {
    if (!marks[i] && lowered(Buffer.from(id, 'utf8')).includes(needle)) marks[i] = 1;
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
  if (!f.changeClass) return { bytes: zeros(n), want: 0 };
  const code = classCode(f.changeClass);
  const criteria = view.criteria
    .map((criterion, c) => (f.criterion === undefined || criterion === f.criterion ? c : -1))
    .filter((c) => c >= 0);
  // One criterion's classes are read alone: a third of the bytes at three criteria.
  if (criteria.length === 1) return { bytes: view.classOf(criteria[0]!), want: code };
  // Each criterion's classes as read for a one-criterion filter or a page, not all again.
  const classes = criteria.map((c) => view.classOf(c));
  const hit = new Uint8Array(n);
  for (const cls of classes) for (let k = 0; k < n; k++) hit[k]! |= cls[k] === code ? 1 : 0;
  return { bytes: hit, want: 1 };
}

/** The largest run of zero bytes asked for so far: read, never written. */
let zeroBytes = new Uint8Array(0);

/**
 * n zero bytes, the stand-in for a condition a filter does not have, kept from one filter to
 * the next rather than a new megabyte per filter at a million rows.
 */
function zeros(n: number): Uint8Array {
  if (zeroBytes.length < n) zeroBytes = new Uint8Array(n);
  return zeroBytes.subarray(0, n);
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
    flags: mask === 0 ? zeros(n) : view.flags,
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
