import Database from 'better-sqlite3';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ftsWords } from '../../../electron/core/compare/filters';
import { sha1, sortedJson } from '../../../electron/core/ingest/prepare';
import { wellFormed } from '../../../electron/core/ingest/limits';
import { isAscii } from '../../../electron/core/search/ascii-words';
import { fillSlice } from '../../../electron/core/search/fill';
import { matchingRowids } from '../../../electron/core/search/matches';
import { scanRun } from '../../../electron/core/search/scan';
import { prefixQuery } from '../../../electron/core/search/terms';
import { BLOCK_SIZE, wholeRows } from '../../../electron/core/texts/blocks';
import { exampleKey } from '../../../electron/core/texts/keys';
import { TextLocator } from '../../../electron/core/texts/locate';
import { encodeSourceBlock } from '../../../electron/core/texts/located';
import { SECTIONS, SectionsBlock } from '../../../electron/core/texts/sections';
import { restoreBlocks, writeMechlensLike, type Writer } from '../../fixtures/located';
import { asciiTextArb, scanTextsAndSearchesArb } from '../../fixtures/search-texts';
import { tempDir } from '../../fixtures/tmp';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (tmp = tempDir('pairwise-scan-')));
afterAll(() => tmp.cleanup());

const RUN = 1;

/** What the scan and the fill read: runs, their stored texts, and the full-text index. */
function library(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`
    CREATE TABLE runs (rowid INTEGER PRIMARY KEY, example_count INTEGER NOT NULL);
    CREATE TABLE examples (run_rowid INTEGER);
    CREATE TABLE run_texts (run_rowid INTEGER, block INTEGER, encoding TEXT, data BLOB,
      PRIMARY KEY (run_rowid, block));
    CREATE TABLE run_search (run_rowid INTEGER PRIMARY KEY, indexed_to INTEGER NOT NULL DEFAULT 0,
      done INTEGER NOT NULL DEFAULT 0, ready INTEGER NOT NULL DEFAULT 0, first_rowid INTEGER,
      last_rowid INTEGER);
    CREATE VIRTUAL TABLE examples_fts USING fts5(input, output, content='',
      contentless_delete=1, tokenize='unicode61', detail=none);`);
  return db;
}

interface Texts {
  input: string;
  output: string;
}

/**
 * A run of these examples as the indexer stores one read from a plain local file: written as
 * `writer` escapes JSON, each text located in the file where the locator finds it (short ones
 * inline), a block of `BLOCK_SIZE` at a time.
 */
function storeRun(db: Database.Database, texts: Texts[], writer: Writer, name: string): string {
  const file = path.join(tmp.dir, name);
  const list = texts.map((t, i) => ({ id: `ex-${i}`, ...t, fields: { i } }));
  writeMechlensLike(file, list, writer);
  const stored = list.map((e) => ({
    ...e,
    input: wellFormed(e.input),
    output: wellFormed(e.output),
  }));
  const located = new TextLocator().locate(fs.readFileSync(file), 0, stored);
  const stat = fs.statSync(file);
  const stamp = { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
  const insert = db.prepare(`INSERT INTO run_texts VALUES (?, ?, ?, ?)`);
  for (let block = 0; block * BLOCK_SIZE < stored.length; block++) {
    const rows = stored.slice(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE).map((e, j) => ({
      input: e.input,
      output: e.output,
      fields: sortedJson(e.fields),
      target: null,
      error: null,
      located: located[block * BLOCK_SIZE + j]!,
      inputHash: sha1(e.input),
      outputHash: sha1(e.output),
    }));
    const { encoding, data } = encodeSourceBlock(stamp, rows);
    insert.run(RUN, block, encoding, data);
  }
  const span = { first: exampleKey(RUN, 0), last: exampleKey(RUN, texts.length - 1) };
  db.prepare(`INSERT INTO runs VALUES (?, ?)`).run(RUN, texts.length);
  db.prepare(`INSERT INTO run_search (run_rowid, first_rowid, last_rowid) VALUES (?, ?, ?)`).run(
    RUN,
    span.first,
    span.last,
  );
  return file;
}

/** Indexes the run's words as the background fill does. */
async function fill(db: Database.Database): Promise<void> {
  const task = { dbPath: '', order: [RUN], batch: null, startBatch: 1000, sliceMs: 60_000 };
  while ((await fillSlice(db, task, new AbortController().signal)).more);
}

/** The run's examples the index matches for these words, or the index's error. */
function indexed(db: Database.Database, words: string[], n: number): number[] | Error {
  try {
    const span = { first: exampleKey(RUN, 0), last: exampleKey(RUN, n - 1) };
    const [hits] = matchingRowids(db, prefixQuery(words), [span], false);
    return [...hits!.keys()].filter((i) => hits![i]);
  } catch (error) {
    return error as Error;
  }
}

function scanned(db: Database.Database, words: string[]): number[] | null {
  const hits = scanRun(db, RUN, words);
  return hits && [...hits.keys()].filter((i) => hits[i]);
}

/** Each search's scan against the index's answer, once the run is filled. */
async function agree(db: Database.Database, texts: Texts[], searches: string[]): Promise<void> {
  const asked = searches.map((s) => ftsWords(s)).filter((w): w is string[] => w !== null);
  const before = asked.map((words) => scanned(db, words));
  await fill(db);
  asked.forEach((words, i) => {
    const expected = indexed(db, words, texts.length);
    if (expected instanceof Error) expect(before[i]).toBeNull();
    else expect({ words, hits: before[i] }).toEqual({ words, hits: expected });
  });
}

let files = 0;

describe('the scan of texts not yet indexed', () => {
  it('cuts and folds ASCII as unicode61 does: letters and digits kept, lowered, all else cuts', () => {
    const db = library();
    db.exec(`CREATE VIRTUAL TABLE temp.t USING fts5(x, content='', tokenize='unicode61');
      CREATE VIRTUAL TABLE temp.v USING fts5vocab(temp, t, instance);`);
    const insert = db.prepare(`INSERT INTO temp.t (rowid, x) VALUES (1, ?)`);
    const terms = db.prepare(`SELECT term FROM temp.v ORDER BY offset`).pluck();
    const clear = db.prepare(`INSERT INTO temp.t (t) VALUES ('delete-all')`);
    fc.assert(
      fc.property(asciiTextArb, (text) => {
        clear.run();
        insert.run(text);
        const words = text.toLowerCase().match(/[0-9a-z]+/g) ?? [];
        expect(terms.all()).toEqual(words);
      }),
      { numRuns: 300 },
    );
  });

  it('matches exactly the examples FTS5 matches once the fill indexed them', async () => {
    await fc.assert(
      fc.asyncProperty(
        scanTextsAndSearchesArb,
        fc.constantFrom<Writer>('js', 'python'),
        fc.constantFrom('located', 'sections'),
        async ([texts, searches], writer, stored) => {
          const db = library();
          storeRun(db, texts, writer, `run-${files++}.json`);
          if (stored === 'sections') restoreBlocks(db, RUN, () => SECTIONS);
          await agree(db, texts, searches);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads blocks the archive stored, and texts past ASCII, as the fill reads them', async () => {
    const texts = Array.from({ length: 3 * BLOCK_SIZE }, (_, i) => ({
      input: `Question ${i}: what does the walrus${i % 5 === 0 ? ' naïve' : ''} say about item_${i}?`,
      output: i % 3 === 0 ? `Ｗalrus 😀 ${i}` : `The WALRUS says "don't"\n(about ${i % 7}).`,
    }));
    const db = library();
    storeRun(db, texts, 'js', `archived-${files++}.json`);
    restoreBlocks(db, RUN, (block) => (['keep', 'sections', 'deflate'] as const)[block]!);
    await agree(db, texts, ['walrus', 'wal', 'item_1', 'naive', 'don', 't', 'say about', 'zzz']);
  });

  it('scans an archived sections block without its rest section', async () => {
    const texts = Array.from({ length: BLOCK_SIZE + 10 }, (_, i) => ({
      input: `Question ${i}: the walrus${i % 4 === 0 ? ' naïve' : ''} and item_${i}`,
      output: i % 3 === 0 ? `Walrus\tsays "${i}"` : `An answer about the narwhal ${i}.`,
    }));
    const db = library();
    storeRun(db, texts, 'js', `rest-${files++}.json`);
    restoreBlocks(db, RUN, () => SECTIONS);
    const searches = [['walrus'], ['narwhal'], ['naive', 'item'], ['says', 'walrus']];
    const before = searches.map((words) => scanned(db, words));
    // The rest section follows the 20-byte head: garbage in its place is no deflate stream.
    const data = db.prepare(`SELECT data FROM run_texts WHERE block = 0`).pluck().get() as Buffer;
    data.fill(0xff, 20, 20 + data.readUInt32LE(8));
    db.prepare(`UPDATE run_texts SET data = ? WHERE block = 0`).run(data);
    expect(() => wholeRows(new SectionsBlock(data))).toThrow();
    expect(searches.map((words) => scanned(db, words))).toEqual(before);
    expect(before.every((hits) => hits !== null && hits.length > 0)).toBe(true);
  });

  it('finds nothing in a text whose source changed in place, as the fill indexes none of it', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => ({
      input: `A long enough question about the walrus number ${i}, to be located.`,
      output: `A long enough answer about the walrus number ${i}, to be located too.`,
    }));
    const db = library();
    const file = storeRun(db, texts, 'js', `edited-${files++}.json`);
    const stat = fs.statSync(file);
    // Same size and time, another text: only the hash of a text read back tells.
    const edited = fs.readFileSync(file, 'utf8').replace('walrus number 3,', 'walrus number 9,');
    fs.writeFileSync(file, edited);
    fs.utimesSync(file, stat.atime, stat.mtime);
    await agree(db, texts, ['walrus', 'number', '3', '9']);
    expect(scanned(db, ['walrus'])).not.toContain(3);
  });

  it('finds nothing in texts whose source changed size or is gone', async () => {
    const texts = Array.from({ length: 10 }, (_, i) => ({
      input: `A long enough question about the walrus number ${i}, to be located.`,
      output: i === 4 ? 'short walrus' : `A long enough answer about the narwhal number ${i}.`,
    }));
    const db = library();
    const file = storeRun(db, texts, 'js', `grown-${files++}.json`);
    fs.appendFileSync(file, '\n');
    await agree(db, texts, ['walrus', 'narwhal']);
    fs.rmSync(file);
    expect(scanned(db, ['walrus'])).toEqual([]);
  });

  it('does not answer a search with a word FTS5 cuts into two terms', () => {
    const db = library();
    storeRun(db, [{ input: 'e x', output: 'y' }], 'js', `phrase-${files++}.json`);
    expect(scanRun(db, RUN, ['e\u0305x'])).toBeNull();
    expect(isAscii('e\u0305x')).toBe(false);
  });
});
