import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ftsQuery, ftsWords } from '../../../electron/core/compare/filters';
import {
  asksTogether,
  matchingInSpans,
  matchingRowids,
  searchRowids,
  type RowidSpan,
} from '../../../electron/core/search/matches';
import { exactTermsQuery } from '../../../electron/core/search/terms';
import { KEY_SPAN } from '../../../electron/core/texts/keys';
import { fuzzIndex, textsAndSearchesArb } from '../../fixtures/search-texts';

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

/** What a search matched before its words were asked as exact terms: each word a prefix. */
function asPrefixes(db: Database.Database, search: string, spans: RowidSpan[]): number[][] | Error {
  try {
    return marked(matchingRowids(db, ftsQuery(search)!, spans, false), spans);
  } catch (error) {
    return error as Error;
  }
}

function asExactTerms(
  db: Database.Database,
  search: string,
  spans: RowidSpan[],
): number[][] | Error {
  try {
    return marked(searchRowids(db, ftsWords(search)!, spans), spans);
  } catch (error) {
    return error as Error;
  }
}

describe('the rowids a search matches', () => {
  const cases: [string, RowidSpan[]][] = [
    [
      'two spans side by side',
      [
        { first: 1, last: 10 },
        { first: 11, last: 20 },
      ],
    ],
    [
      'two spans with a larger run between',
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
    for (const search of ['wal', 'walrus', 'item 3', 'narwhal seal', 'absent'])
      for (const together of [true, false]) {
        const query = ftsQuery(search)!;
        expect(marked(matchingRowids(db, query, spans, together), spans)).toEqual(
          expected(db, query, spans),
        );
      }
    db.close();
  });

  it("finds each small span's matches from its first key on, none past its end", () => {
    const db = index();
    const spans: RowidSpan[] = [
      { first: 3, last: 30 },
      { first: 90, last: 117 },
      { first: 50, last: 50 },
    ];
    for (const query of [
      '"walrus"*',
      '"wal"*',
      '"seal"',
      '"item"*',
      '"absent"',
      '"walrus" OR "seal"',
    ]) {
      for (const asked of [spans, [...spans].reverse()]) {
        const want = expected(db, query, asked);
        expect(marked(matchingInSpans(db, query, asked), asked)).toEqual(want);
      }
    }
    // Matches lie past each span's end, which a span's query must not mark.
    expect(expected(db, '"walrus"*', [{ first: 31, last: 89 }]).flat().length).toBeGreaterThan(10);
  });

  it('asks the two sides in one query when no larger run lies between their keys', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE run_search (run_rowid INTEGER PRIMARY KEY, first_rowid INTEGER,
      last_rowid INTEGER)`);
    const insert = db.prepare(`INSERT INTO run_search VALUES (?, ?, ?)`);
    const run = (rowid: number, examples: number) => {
      const span = { first: rowid * KEY_SPAN, last: rowid * KEY_SPAN + examples - 1 };
      insert.run(rowid, span.first, span.last);
      return span;
    };
    const [one, two, three, four] = [run(1, 100), run(2, 100), run(3, 500), run(4, 100)];
    expect(asksTogether(db, [one!, two!])).toBe(true);
    expect(asksTogether(db, [two!, one!])).toBe(true);
    expect(asksTogether(db, [one!, one!])).toBe(true);
    expect(asksTogether(db, [two!, four!])).toBe(false);
    expect(asksTogether(db, [one!, three!])).toBe(true);
    db.close();
  });

  it('asks a word with few completions as an OR of its exact terms, folded as FTS5 folds', () => {
    const db = index();
    expect(exactTermsQuery(db, ['WALR'])).toBe('("walr" OR "walrus")');
    expect(exactTermsQuery(db, ['wal', 'Séal'])).toBe(
      '("wal" OR "walnut" OR "walrus") AND ("seal")',
    );
    // The word is one of its terms whether or not the index holds it: absent, it matches nothing.
    expect(exactTermsQuery(db, ['absent', 'seal'])).toBe('("absent") AND ("seal")');
    db.close();
  });

  it('keeps a word of many completions a prefix', () => {
    const db = index();
    // "item 1…" outputs: rowid × 1000003 gives more than 16 terms that begin with "1".
    expect(exactTermsQuery(db, ['1', 'seal'])).toBe('"1"* AND ("seal")');
    db.close();
  });

  it('match exactly what the words as prefixes matched, on any texts and searches', () => {
    fc.assert(
      fc.property(textsAndSearchesArb, ([texts, searches]) => {
        const { db, spans } = fuzzIndex(texts);
        try {
          for (const search of searches) {
            if (!ftsWords(search)) continue;
            expect(asExactTerms(db, search, spans)).toEqual(asPrefixes(db, search, spans));
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});
