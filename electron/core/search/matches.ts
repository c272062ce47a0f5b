import type { Db } from '../db/open';

/** A rowid span of one side of a pair: the examples of its run. */
export interface RowidSpan {
  first: number;
  last: number;
}

/** A comma, between two rowids of the list SQLite joins. */
const COMMA = 0x2c;
const ZERO = 0x30;

/**
 * The examples of each span whose words match an FTS5 query, as one byte per rowid of the span.
 * A prefix query (every search is one) gathers its words' rowids over the whole index before
 * it applies a rowid range, so spans close together are asked in one query: the two runs of
 * a pair are usually indexed together. SQLite joins the matches into one string of offsets,
 * read back in one pass: a common word matches most of a million examples, and a JavaScript
 * number and array slot per match would cost more than finding them.
 */
export function matchingRowids(db: Db, query: string, spans: RowidSpan[]): Uint8Array[] {
  const hits = spans.map((span) => new Uint8Array(span.last - span.first + 1));
  const sizes = spans.reduce((sum, span) => sum + span.last - span.first + 1, 0);
  const first = Math.min(...spans.map((span) => span.first));
  const last = Math.max(...spans.map((span) => span.last));
  const asked = last - first + 1 <= 2 * sizes ? [{ first, last }] : spans;
  const statement = db
    .prepare(
      `SELECT group_concat(rowid - CAST(? AS INTEGER), ',') FROM examples_fts
       WHERE examples_fts MATCH ? AND rowid BETWEEN ? AND ?`,
    )
    .pluck();
  for (const range of asked) {
    const list = statement.get(range.first, query, range.first, range.last) as string | null;
    if (list !== null) markAll(list, range.first, spans, hits);
  }
  return hits;
}

/** Marks each rowid of a joined list of offsets from `base` in the span that holds it. */
function markAll(list: string, base: number, spans: RowidSpan[], hits: Uint8Array[]): void {
  const mark = (rowid: number) => {
    for (let s = 0; s < spans.length; s++) {
      const at = rowid - spans[s]!.first;
      if (at >= 0 && at < hits[s]!.length) hits[s]![at] = 1;
    }
  };
  let offset = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list.charCodeAt(i);
    if (c === COMMA) {
      mark(base + offset);
      offset = 0;
    } else offset = offset * 10 + (c - ZERO);
  }
  mark(base + offset);
}
