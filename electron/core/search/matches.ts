import type { Db } from '../db/open';
import { runOfKey } from '../texts/keys';
import { scansOf } from './scans';
import { exactTermsQuery } from './terms';

/** A rowid span of one side of a pair: the examples of its run. */
export interface RowidSpan {
  first: number;
  last: number;
}

/**
 * The examples of each span that hold every one of a search's words as the beginning of a
 * word (see `exactTermsQuery`), as `matchingRowids` gives them: from a finished scan of the
 * span's run (scans.ts) when there is one, else from the full-text index.
 */
export function searchRowids(db: Db, words: string[], spans: RowidSpan[]): Uint8Array[] {
  const scans = scansOf(db);
  const scanned = spans.map((span) => {
    const hits = scans?.hits(runOfKey(span.first), words);
    return hits && hits.length === span.last - span.first + 1 ? hits : null;
  });
  const asked = spans.filter((_, i) => scanned[i] === null);
  const indexed =
    asked.length > 0
      ? matchingRowids(db, exactTermsQuery(db, words), asked, asksTogether(db, asked))
      : [];
  let next = 0;
  return scanned.map((hits) => hits ?? indexed[next++]!);
}

/**
 * Whether one query over the spans and what lies between them is cheaper than a query per
 * span: when other runs have no more examples between them than the spans hold. Keys leave a
 * wide gap between two runs (a run's key span is 2^24 wide), so the gap's width says nothing
 * of what it holds.
 */
export function asksTogether(db: Db, spans: RowidSpan[]): boolean {
  return othersBetween(db, spans) <= sizeOf(spans);
}

const sizeOf = (spans: RowidSpan[]) =>
  spans.reduce((sum, span) => sum + span.last - span.first + 1, 0);

/** How many examples of other runs have keys between the spans': a query over both reads them. */
function othersBetween(db: Db, spans: RowidSpan[]): number {
  const inside = db
    .prepare(
      `SELECT coalesce(sum(last_rowid - first_rowid + 1), 0) FROM run_search
       WHERE first_rowid BETWEEN ? AND ?`,
    )
    .pluck()
    .get(Math.min(...spans.map((span) => span.first)), Math.max(...spans.map((span) => span.last)));
  return (inside as number) - sizeOf(spans);
}

/** A comma, between two rowids of the list SQLite joins. */
const COMMA = 0x2c;
const ZERO = 0x30;

/**
 * The examples of each span whose words match an FTS5 query, as one byte per rowid of the span.
 * A prefix query gathers its words' rowids over the whole index before it applies a rowid
 * range, so spans with little between them are asked `together`, in one query over the range
 * from the first to the last: the two runs of a pair are usually indexed one after the other.
 * SQLite joins the matches into one string of offsets, read back in one pass: a common word
 * matches most of a million examples, and a JavaScript number and array slot per match would
 * cost more than finding them.
 */
export function matchingRowids(
  db: Db,
  query: string,
  spans: RowidSpan[],
  together: boolean,
): Uint8Array[] {
  const hits = spans.map((span) => new Uint8Array(span.last - span.first + 1));
  const first = Math.min(...spans.map((span) => span.first));
  const last = Math.max(...spans.map((span) => span.last));
  const asked = together ? [{ first, last }] : spans;
  const statement = db
    .prepare(
      `SELECT group_concat(rowid - CAST(? AS INTEGER)) FROM examples_fts
       WHERE examples_fts MATCH ? AND rowid BETWEEN ? AND ?`,
    )
    .pluck();
  for (const range of asked) {
    const list = statement.get(range.first, query, range.first, range.last) as string | null;
    if (list !== null) markAll(list, range.first, spans, hits);
  }
  return hits;
}

/**
 * The examples of a few small spans (a page's rows' keys) whose words match an FTS5 query,
 * each span asked from its first key on, in key order, for at most as many matches as it has
 * keys, the matches past its end left out. FTS5 seeks a term's matches to a lower bound and
 * reads them no further than asked, while a range with an upper bound too read the whole list
 * of a common word's matches: at a million examples per run, "qua0" (in nearly every example)
 * took ~80 ms per span that way, ~1 ms this way. A word asked as a prefix of many terms
 * (terms.ts) still gathers every match first, as it would for any range.
 */
export function matchingInSpans(db: Db, query: string, spans: RowidSpan[]): Uint8Array[] {
  const hits = spans.map((span) => new Uint8Array(span.last - span.first + 1));
  const statement = db
    .prepare(
      `SELECT group_concat(rowid - CAST(? AS INTEGER)) FROM (SELECT rowid FROM examples_fts
       WHERE examples_fts MATCH ? AND rowid >= ? ORDER BY rowid LIMIT ?)`,
    )
    .pluck();
  spans.forEach((span, s) => {
    const list = statement.get(span.first, query, span.first, hits[s]!.length) as string | null;
    // Only this span's hits are marked: the ones past its end fall in no span given here.
    if (list !== null) markAll(list, span.first, [span], [hits[s]!]);
  });
  return hits;
}

/** The span that holds an offset from `base`, or -1. */
function spanOf(offset: number, starts: number[], hits: Uint8Array[]): number {
  for (let s = 0; s < starts.length; s++)
    if (offset >= starts[s]! && offset - starts[s]! < hits[s]!.length) return s;
  return -1;
}

/**
 * Marks each offset from `base` of a list SQLite joined with commas in the span that holds it.
 * FTS5 lists rowids in order, so the span of the last one is tried first: one test per offset.
 */
function markAll(list: string, base: number, spans: RowidSpan[], hits: Uint8Array[]): void {
  const starts = spans.map((span) => span.first - base);
  let s = 0;
  let offset = 0;
  for (let i = 0; i <= list.length; i++) {
    const c = i < list.length ? list.charCodeAt(i) : COMMA;
    if (c !== COMMA) {
      offset = offset * 10 + (c - ZERO);
      continue;
    }
    if (s < 0 || offset < starts[s]! || offset - starts[s]! >= hits[s]!.length)
      s = spanOf(offset, starts, hits);
    if (s >= 0) hits[s]![offset - starts[s]!] = 1;
    offset = 0;
  }
}
