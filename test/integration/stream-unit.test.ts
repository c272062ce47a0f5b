import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { indexUnit } from '../../electron/core/ingest/index-unit';
import { IndexStore } from '../../electron/core/ingest/store';
import { CancelledError } from '../../electron/core/jobs/protocol';
import { aheadLimit } from '../../electron/core/ingest/stream-unit';
import { BatchReader } from '../../electron/core/ingest/stream-batches';
import type { SourceUnit } from '../../electron/core/ingest/types';
import { mechlensRecord, type ExampleSpec } from '../fixtures/formats';
import { fuzzRuns, fuzzSeed } from '../fixtures/fuzz';
import { index, runFile, scratchPerTest, stored, STREAMED, WHOLE } from '../fixtures/stream-unit';
import { BLOCK_SIZE } from '../../electron/core/texts/blocks';
import { storedExampleCount, storedExamples } from '../fixtures/stored-examples';

const scratch = scratchPerTest();

/**
 * A unit as an object fetched from a store arrives (a local copy under its own address): its
 * texts cannot be left in the copy, so it is read ahead only while another worker holds the
 * write lock. (A plain local file is read to the end before it takes the lock.)
 */
function storedCopy(file: string): SourceUnit {
  return { path: file, kind: 'file', files: [file], source: file };
}

const tricky: ExampleSpec[] = [
  { id: 'a"b', input: 'quote " and \\ backslash \\" ] } , [ {', output: 'walrus', fields: {} },
  { id: 'lone-\ud800', input: 'x', output: '\\\\', fields: { nested: { deep: [1, [2, [3]]] } } },
  { id: 'caf\u00e9', input: 'é', output: 'answer \u2028 line', fields: { refused: true } },
  { id: 'cafe\u0301', input: 'e\u0301', output: '"]}', fields: { score: 1.5 } },
  ...Array.from({ length: 30 }, (_, i) => ({
    id: `ex-${i}`,
    input: `Prompt ${i} ${'\\'.repeat(i % 4)}"`,
    output: `answer ${i}`,
    fields: { score: i % 5, refused: i % 2 === 0 },
  })),
];

describe('large MechLens files, read in batches', () => {
  it('store exactly what the whole-file path stores, keys before and after the examples', async () => {
    const s = scratch();
    const file = runFile(s.dir, JSON.stringify(mechlensRecord({ examples: tricky }), null, 1));
    const whole = s.db('whole');
    const streamed = s.db('streamed');
    expect(await index(whole, file, WHOLE)).toMatchObject({ status: 'imported', examples: 34 });
    expect(await index(streamed, file, STREAMED)).toMatchObject({ status: 'imported' });
    expect(stored(streamed)).toEqual(stored(whole));
    const run = streamed.prepare(`SELECT warnings FROM runs`).get() as { warnings: string };
    expect(run.warnings).toMatch(/Unicode normalization/);
  });

  it('store the same source hash for a run file outside a runs folder', async () => {
    const s = scratch();
    const file = path.join(s.dir, 'lib', 'exported', 'run.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(mechlensRecord({ examples: tricky })));
    const whole = s.db('whole');
    const streamed = s.db('streamed');
    expect(await index(whole, file, WHOLE)).toMatchObject({ status: 'imported', examples: 34 });
    expect(await index(streamed, file, STREAMED)).toMatchObject({ status: 'imported' });
    expect(stored(streamed)).toEqual(stored(whole));
  });

  it('refuse a late example nested past the depth limit, as the whole-file path does', async () => {
    const s = scratch();
    // The run object is level 1, `examples` 2, an example 3 and its fields 4: `levels` arrays
    // inside the fields reach level 4 + levels.
    const nestedAt = (levels: number): ExampleSpec => ({
      id: 'deep',
      input: 'q',
      output: 'a',
      fields: { deep: JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as [] },
    });
    for (const [levels, outcome] of [
      [508, { status: 'imported', examples: 35 }],
      [509, { status: 'failed', message: expect.stringMatching(/nested more than 512 levels/) }],
    ] as const) {
      const examples = [...tricky, nestedAt(levels)];
      const file = runFile(
        s.dir,
        JSON.stringify(mechlensRecord({ examples })),
        `run-${levels}.json`,
      );
      const whole = s.db(`whole-${levels}`);
      const streamed = s.db(`streamed-${levels}`);
      const wholeResult = await index(whole, file, WHOLE);
      const streamedResult = await index(streamed, file, STREAMED);
      expect(wholeResult).toMatchObject(outcome);
      expect(streamedResult).toMatchObject(outcome);
      if (outcome.status === 'imported') expect(stored(streamed)).toEqual(stored(whole));
      else
        expect(streamedResult).toMatchObject({
          message: (wholeResult as { message: string }).message,
        });
    }
  });

  it('cut their texts into the same blocks as the whole-file path, across batch edges', async () => {
    const s = scratch();
    // Two whole blocks and a partial one, in batches of some 40 examples that straddle them.
    const many = Array.from({ length: 2 * BLOCK_SIZE + 77 }, (_, i) => ({
      id: `ex-${i}`,
      input: `question ${i}`,
      output: `answer ${i}`,
      fields: { score: i % 5 },
    }));
    const file = runFile(s.dir, JSON.stringify(mechlensRecord({ examples: many })));
    const whole = s.db('whole');
    const streamed = s.db('streamed');
    await index(whole, file, WHOLE);
    await index(streamed, file, { streamFromBytes: 0, batchBytes: 4096 });
    const blocks = (db: Db) =>
      db.prepare(`SELECT block, length(data) AS bytes FROM run_texts ORDER BY block`).all();
    expect(blocks(whole)).toHaveLength(3);
    expect(stored(streamed)).toEqual(stored(whole));
  });

  it('leave long texts in a local file, read to its end before taking the write lock', async () => {
    const s = scratch();
    const long = Array.from({ length: BLOCK_SIZE + 40 }, (_, i) => ({
      id: `ex-${i}`,
      input: `A question long enough to be left in its file, number ${i}: "quoted" café ☕`,
      output: `An answer long enough to be left in its file as well, number ${i}.\nSecond line.`,
      fields: { score: i % 5 },
    }));
    const file = runFile(s.dir, JSON.stringify(mechlensRecord({ examples: long }), null, 1));
    const whole = s.db('whole');
    await index(whole, file, WHOLE);
    const db = s.db('streamed');
    const other = openDatabase(db.name);
    other.exec('BEGIN IMMEDIATE');
    const store = new IndexStore(db);
    let tried = 0;
    store.tryBegin = () => (tried++, false);
    const read = vi.spyOn(BatchReader.prototype, 'next');
    let readAtBegin = -1;
    const begin = store.begin.bind(store);
    store.begin = () => {
      readAtBegin = read.mock.results.filter((r) => r.value !== null).length;
      if (other.inTransaction) other.exec('COMMIT');
      begin();
    };
    const unit = { path: file, kind: 'file' as const, files: [file] };
    const stream = { streamFromBytes: 0, batchBytes: 4096 };
    const result = await indexUnit(
      { unit, folder: null, dbPath: db.name, stream },
      store,
      new AbortController().signal,
    );
    other.close();
    const batches = read.mock.results.filter((r) => r.value !== null).length;
    read.mockRestore();
    expect(result).toMatchObject({ status: 'imported', examples: long.length });
    expect(batches).toBeGreaterThan(10);
    expect(readAtBegin).toBe(batches);
    expect(tried).toBe(0);
    const encodings = (d: Db) =>
      d.prepare(`SELECT DISTINCT encoding FROM run_texts`).pluck().all() as string[];
    expect(encodings(db)).toEqual(['located']);
    expect(encodings(whole)).toEqual(['located']);
    expect(storedExamples(db)).toEqual(storedExamples(whole));
    expect(storedExamples(db).map((e) => [e.input, e.output])).toEqual(
      long.map((e) => [e.input, e.output]),
    );
  });

  it('report how far into the file its stored batches reach', async () => {
    const s = scratch();
    const file = runFile(s.dir, JSON.stringify(mechlensRecord({ examples: tricky }), null, 1));
    const db = s.db('progress');
    const unit = { path: file, kind: 'file' as const, files: [file] };
    const reached: number[] = [];
    const task = { unit, folder: null, dbPath: db.name, stream: STREAMED };
    const result = await indexUnit(task, new IndexStore(db), new AbortController().signal, (b) =>
      reached.push(b),
    );
    expect(result).toMatchObject({ status: 'imported', examples: 34 });
    const size = fs.statSync(file).size;
    expect(reached.length).toBeGreaterThan(5);
    expect(reached.every((b, i) => i === 0 || b > reached[i - 1]!)).toBe(true);
    expect(reached.at(-1)!).toBeLessThan(size);
    expect(reached.at(-1)!).toBeGreaterThan(size / 2);
  });

  it('give a clear problem for a truncated or malformed file and keep what it gave before', async () => {
    const s = scratch();
    const text = JSON.stringify(mechlensRecord({ examples: tricky }), null, 1);
    const file = runFile(s.dir, text);
    const db = s.db('p');
    await index(db, file, STREAMED);
    const cases: [string, RegExp][] = [
      [
        text.slice(0, Math.floor(text.length * 0.6)),
        /unexpected end of JSON.*still be being written/,
      ],
      [text.replace('"answer 7"', '"answer 7",'), /near line \d+/],
      [text.replace('"ex-9"', '"ex-3"'), /duplicate example id "ex-3" \(examples 8 and 14\)/],
      [`${text}\n{}`, /line \d+, column 1: unexpected '\{' after the end of the JSON/],
      [
        text.replace('"examples": [', '"examples" [').replace('"examples":[', '"examples" ['),
        /expected ':'/,
      ],
      [text.replace('"output": "walrus"', '"output": walrus'), /near line/],
      [
        text.replace('\n ],\n "metrics"', '\n ] 1,\n "metrics"'),
        /expected ',' or '\}' after the list/,
      ],
    ];
    for (const [bad, message] of cases) {
      fs.writeFileSync(file, bad);
      const result = await index(db, file, STREAMED);
      expect(result).toMatchObject({ status: 'failed', message: expect.stringMatching(message) });
      expect(storedExampleCount(db)).toBe(34);
    }
    const source = db.prepare(`SELECT status, error FROM sources`).get() as { status: string };
    expect(source.status).toBe('failed');
  });

  it('refuse bytes that are not UTF-8 in a late batch, placed at that batch', async () => {
    const s = scratch();
    const text = JSON.stringify(mechlensRecord({ examples: tricky }), null, 1);
    const bytes = Buffer.from(text);
    const at = bytes.indexOf('answer 27');
    bytes[at] = 0xff;
    const file = runFile(s.dir, '');
    fs.writeFileSync(file, bytes);
    const result = await index(s.db('p'), file, STREAMED);
    // Placed where its batch starts: within the few lines before the byte.
    const line = text.slice(0, at).split('\n').length;
    const [, placed] = /^line (\d+), column \d+: not valid UTF-8 text$/.exec(
      (result as { message?: string }).message ?? '',
    ) ?? [null, '0'];
    expect(result.status).toBe('failed');
    expect(Number(placed)).toBeGreaterThan(line - 16);
    expect(Number(placed)).toBeLessThanOrEqual(line);
  });

  it('stop at a cancel between batches, leaving the file as it was indexed before', async () => {
    const s = scratch();
    const file = runFile(s.dir, JSON.stringify(mechlensRecord({ examples: tricky })));
    const db = s.db('p');
    await index(db, file, STREAMED);
    const before = stored(db);
    fs.writeFileSync(file, JSON.stringify(mechlensRecord({ examples: tricky.slice(5) })));
    const store = new IndexStore(db);
    const controller = new AbortController();
    const write = store.writeTexts.bind(store);
    store.writeTexts = (...args) => {
      write(...args);
      controller.abort();
    };
    const unit = { path: file, kind: 'file' as const, files: [file] };
    const task = { unit, folder: null, dbPath: db.name, stream: STREAMED };
    await expect(indexUnit(task, store, controller.signal)).rejects.toThrow(CancelledError);
    expect(db.inTransaction).toBe(false);
    expect(stored(db)).toEqual(before);
  });

  it('read batches ahead while another worker holds the write lock, and store the same', async () => {
    const s = scratch();
    const text = JSON.stringify(mechlensRecord({ examples: tricky }), null, 1);
    const file = runFile(s.dir, text);
    const whole = s.db('whole');
    for (const [bad, message] of [
      [text, null],
      [text.replace('"ex-9"', '"ex-3"'), /duplicate example id "ex-3"/],
    ] as const) {
      fs.writeFileSync(file, bad);
      if (!message) await index(whole, file, WHOLE);
      const db = s.db(message ? 'bad' : 'good');
      const other = openDatabase(db.name);
      other.exec('BEGIN IMMEDIATE');
      const store = new IndexStore(db);
      const tryBegin = store.tryBegin.bind(store);
      let refused = 0;
      // The other writer lets go after the third batch was read ahead.
      store.tryBegin = () => {
        if (refused === 3 && other.inTransaction) other.exec('COMMIT');
        const began = tryBegin();
        if (!began) refused++;
        return began;
      };
      const unit = storedCopy(file);
      const task = { unit, folder: null, dbPath: db.name, stream: STREAMED };
      const result = await indexUnit(task, store, new AbortController().signal);
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      if (message) {
        expect(result).toMatchObject({ status: 'failed', message: expect.stringMatching(message) });
        expect(storedExampleCount(db)).toBe(0);
      } else {
        expect(refused).toBe(3);
        expect(result).toMatchObject({ status: 'imported', examples: 34 });
        expect(stored(db)).toEqual(stored(whole));
      }
    }
  });

  it('fail a run broken in a late batch before taking the lock when it was read ahead whole', async () => {
    const s = scratch();
    const text = JSON.stringify(mechlensRecord({ examples: tricky }), null, 1);
    const file = runFile(s.dir, text);
    const db = s.db('p');
    await index(db, file, STREAMED);
    const before = stored(db);
    fs.writeFileSync(file, text.replace('"answer 28"', '"answer 28",'));
    const other = openDatabase(db.name);
    other.exec('BEGIN IMMEDIATE');
    const store = new IndexStore(db);
    let refused = 0;
    let began = 0;
    const tryBegin = store.tryBegin.bind(store);
    store.tryBegin = () => {
      const got = tryBegin();
      if (!got) refused++;
      return got;
    };
    const begin = store.begin.bind(store);
    store.begin = () => {
      begin();
      began++;
    };
    // The other writer holds the lock until the failure is to be written down.
    const writeFailed = store.writeFailed.bind(store);
    store.writeFailed = (...args) => {
      if (other.inTransaction) other.exec('COMMIT');
      writeFailed(...args);
    };
    const unit = storedCopy(file);
    const task = { unit, folder: null, dbPath: db.name, stream: STREAMED };
    const result = await indexUnit(task, store, new AbortController().signal);
    other.close();
    expect(result).toMatchObject({ status: 'failed', message: expect.stringMatching(/near line/) });
    expect(refused).toBeGreaterThan(10);
    expect(began).toBe(0);
    const after = stored(db) as { sources: { status: string }[] };
    expect(after.sources[0]!.status).toBe('failed');
    expect({ ...after, sources: null }).toEqual({ ...(before as object), sources: null });
  });

  it('keep to the read-ahead limit it is given, then store the rest under the lock', async () => {
    const s = scratch();
    const text = JSON.stringify(mechlensRecord({ examples: tricky }), null, 1);
    const file = runFile(s.dir, text);
    const whole = s.db('whole');
    await index(whole, file, WHOLE);
    const db = s.db('p');
    const other = openDatabase(db.name);
    other.exec('BEGIN IMMEDIATE');
    const store = new IndexStore(db);
    let refused = 0;
    let trying = false;
    let refusedAtBegin = -1;
    const tryBegin = store.tryBegin.bind(store);
    store.tryBegin = () => {
      trying = true;
      const got = tryBegin();
      trying = false;
      if (!got) refused++;
      return got;
    };
    // The reader gave up reading ahead and waits for the lock: the other writer lets go.
    const begin = store.begin.bind(store);
    store.begin = () => {
      if (!trying) {
        refusedAtBegin = refused;
        if (other.inTransaction) other.exec('COMMIT');
      }
      begin();
    };
    const unit = storedCopy(file);
    const stream = { ...STREAMED, aheadBytes: 450 };
    const result = await indexUnit(
      { unit, folder: null, dbPath: db.name, stream },
      store,
      new AbortController().signal,
    );
    other.close();
    expect(result).toMatchObject({ status: 'imported', examples: 34 });
    expect(refusedAtBegin).toBeGreaterThanOrEqual(1);
    expect(refusedAtBegin).toBeLessThanOrEqual(3);
    expect(stored(db)).toEqual(stored(whole));
  });

  it('read a mid-sized examples list ahead whole and a larger one 32 MB of it', () => {
    const MB = 1024 ** 2;
    const list = (mb: number) => ({
      elements: 2,
      batches: [
        { start: 10, end: 10 + (mb / 2) * MB, first: 0 },
        { start: 11 + (mb / 2) * MB, end: 10 + mb * MB, first: 1 },
      ],
    });
    expect(aheadLimit(list(100), {})).toBe(100 * MB);
    expect(aheadLimit(list(128), {})).toBe(128 * MB);
    expect(aheadLimit(list(900), {})).toBe(32 * MB);
    expect(aheadLimit({ elements: 0, batches: [] }, {})).toBe(0);
    expect(aheadLimit(list(900), { aheadBytes: 5 })).toBe(5);
  });

  it('leave other JSON to the whole-file readers', async () => {
    const s = scratch();
    const dir = path.join(s.dir, 'elsewhere');
    fs.mkdirSync(dir);
    const notes = path.join(dir, 'notes.json');
    fs.writeFileSync(notes, JSON.stringify({ examples: [1, 2], note: 'not a run' }));
    expect(await index(s.db('p'), notes, STREAMED)).toMatchObject({ status: 'skipped' });
  });

  it('agree with the whole-file path on any mangled run file', async () => {
    const s = scratch();
    const whole = s.db('whole');
    const streamed = s.db('streamed');
    const base = JSON.stringify(mechlensRecord({ examples: tricky.slice(0, 12) }));
    const mangled = fc.oneof(
      fc
        .tuple(fc.nat(base.length), fc.nat(40))
        .map(([at, n]) => base.slice(0, at) + base.slice(at + n)),
      fc
        .tuple(
          fc.nat(base.length),
          fc.constantFrom('"', '\\', ',', ']', '}', '[', '{', ':', ' ', '"x":1,', '1', 'n', '\n'),
        )
        .map(([at, c]) => base.slice(0, at) + c + base.slice(at)),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mangled, async (text) => {
        const file = runFile(s.dir, text, `case-${++n}.json`);
        const a = await index(whole, file, WHOLE);
        const b = await index(streamed, file, STREAMED);
        expect(b.status).toBe(a.status);
        if (a.status === 'imported') {
          const id = (db: Db) =>
            db
              .prepare(
                `SELECT r.rowid FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.path = ?`,
              )
              .pluck()
              .all(file)
              .flatMap((run) => storedExamples(db, run as number))
              .map((r) => ({ ...r, rowid: 0, run_rowid: 0 }));
          expect(id(streamed)).toEqual(id(whole));
        }
      }),
      { numRuns: fuzzRuns(150), seed: fuzzSeed() },
    );
  }, 120_000);
});
