import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ftsQuery } from '../../../electron/core/compare/filters';
import { matchingRowids, type RowidSpan } from '../../../electron/core/search/matches';

/** An index of three runs' texts: a small one, a large one, a small one, in rowid order. */
function index(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE examples_fts USING fts5(input, output, content='',
    contentless_delete=1, tokenize='unicode61', detail=none)`);
  const insert = db.prepare(`INSERT INTO examples_fts (rowid, input, output) VALUES (?, ?, ?)`);
  const words = ['walrus', 'walnut', 'narwhal', 'seal'];
  for (let rowid = 1; rowid <= 120; rowid++)
    insert.run(rowid, words[rowid % 4], rowid % 3 === 0 ? 'a walrus' : `item ${rowid * 1000003}`);
  return db;
}

/** The plain way: one query per span, every matching rowid as a number. */
function expected(db: Database.Database, query: string, spans: RowidSpan[]): number[][] {
  const all = db
    .prepare(`SELECT rowid FROM examples_fts WHERE examples_fts MATCH ? AND rowid BETWEEN ? AND ?`)
    .pluck();
  return spans.map((span) => all.all(query, span.first, span.last) as number[]);
}

const marked = (hits: Uint8Array[], spans: RowidSpan[]) =>
  hits.map((hit, s) => [...hit.keys()].filter((i) => hit[i]).map((i) => i + spans[s]!.first));

describe('the rowids a search matches', () => {
  const cases: [string, RowidSpan[]][] = [
    [
      'two spans side by side (one query)',
      [
        { first: 1, last: 10 },
        { first: 11, last: 20 },
      ],
    ],
    [
      'two spans with a larger run between (a query each)',
      [
        { first: 1, last: 10 },
        { first: 111, last: 120 },
      ],
    ],
    ['one span', [{ first: 11, last: 110 }]],
    [
      'the spans in either order',
      [
        { first: 101, last: 120 },
        { first: 1, last: 30 },
      ],
    ],
  ];
  it.each(cases)('are the same as one query per span asks: %s', (_, spans) => {
    const db = index();
    for (const search of ['wal', 'walrus', 'item 3', 'narwhal seal', 'absent']) {
      const query = ftsQuery(search)!;
      expect(marked(matchingRowids(db, query, spans), spans)).toEqual(expected(db, query, spans));
    }
    db.close();
  });
});
