import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { sha1, sortedJson } from '../../electron/core/ingest/prepare';
import { BLOCK_SIZE, type TextRow, type Wanted } from '../../electron/core/texts/blocks';
import { exampleKey } from '../../electron/core/texts/keys';
import { TextLocator } from '../../electron/core/texts/locate';
import { encodeSourceBlock, LOCATED } from '../../electron/core/texts/located';
import { TextReader } from '../../electron/core/texts/read';
import { bytesBefore, SECTIONS, SECTIONS_HEAD_BYTES } from '../../electron/core/texts/sections';
import {
  asStored,
  locatedExamples,
  restoreBlocks,
  writeMechlensLike,
  type Restored,
} from '../fixtures/located';
import { tempDir } from '../fixtures/tmp';

let tmp: ReturnType<typeof tempDir>;
let db: Db;
let file: string;

/** A whole second, so a test can set a changed file's mtime back exactly. */
const STAMPED = 1_700_000_000;

/** Examples over two and a half blocks, so a run has a partial last block. */
const COUNT = Math.round(2.5 * BLOCK_SIZE);

/** Stores run 1's blocks located in `file`, as the indexer would; gives its rows whole. */
function indexLocated(): TextRow[] {
  const list = asStored(locatedExamples(COUNT, 7));
  writeMechlensLike(file, locatedExamples(COUNT, 7), 'python', 2);
  fs.utimesSync(file, STAMPED, STAMPED);
  const stat = fs.statSync(file);
  const located = new TextLocator().locate(fs.readFileSync(file), 0, list);
  const rows = list.map((e, i) => ({
    input: e.input,
    output: e.output,
    fields: sortedJson(e.fields as never),
    target: i % 4 ? null : `target ${i}`,
    error: i % 9 ? null : `error ${i}`,
    located: located[i]!,
    inputHash: sha1(e.input),
    outputHash: sha1(e.output),
  }));
  const insert = db.prepare(`INSERT INTO run_texts VALUES (?, ?, ?, ?)`);
  const stamp = { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
  for (let block = 0; block * BLOCK_SIZE < COUNT; block++) {
    const { encoding, data } = encodeSourceBlock(
      stamp,
      rows.slice(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE),
    );
    expect(encoding).toBe(LOCATED);
    insert.run(1, block, encoding, data);
  }
  return rows.map((r) => ({
    input: r.input,
    output: r.output,
    fields: JSON.parse(r.fields) as TextRow['fields'],
    target: r.target,
    error: r.error,
    unavailable: null,
  }));
}

/** Run `run` as a copy of run 1, its blocks stored again as `encodingOf` picks. */
function copyOfRun(run: number, encodingOf: (block: number) => Restored): void {
  db.prepare(
    `INSERT INTO run_texts SELECT ?, block, encoding, data FROM run_texts WHERE run_rowid = 1`,
  ).run(run);
  restoreBlocks(db, run, encodingOf);
}

function asked(row: TextRow, want: Wanted) {
  return { ...row, input: want.input ? row.input : null, output: want.output ? row.output : null };
}

/**
 * The [start, end] of each of a row's two texts in the file, from its stored block; null for
 * a text kept inline.
 */
function rangesOf(ordinal: number): ([number, number] | null)[] {
  const data = db
    .prepare(`SELECT data FROM run_texts WHERE run_rowid = 1 AND block = ?`)
    .pluck()
    .get(Math.floor(ordinal / BLOCK_SIZE)) as Buffer;
  const block = JSON.parse(data.toString('utf8')) as { rows: unknown[][] };
  return block.rows[ordinal % BLOCK_SIZE]!.slice(0, 2).map((ref) =>
    Array.isArray(ref) ? [ref[0] as number, ref[1] as number] : null,
  );
}

/** The first row from `from` on whose two texts both lie in the file. */
function locatedRow(from: number): { ordinal: number; ranges: [number, number][] } {
  for (let ordinal = from; ; ordinal++) {
    const ranges = rangesOf(ordinal);
    if (ranges.every((r) => r !== null)) return { ordinal, ranges: ranges as [number, number][] };
  }
}

beforeEach(() => {
  tmp = tempDir('pairwise-read-rows-');
  file = path.join(tmp.dir, 'run.json');
  db = openDatabase(path.join(tmp.dir, 'library.db'));
  db.pragma('foreign_keys = OFF');
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
  tmp.cleanup();
});

describe('reading some rows of some blocks', () => {
  it('gives the same rows from located, json, deflate and sections blocks, and from a mix', () => {
    const whole = indexLocated();
    const encodings: Restored[] = ['json', 'deflate', SECTIONS];
    copyOfRun(2, () => 'json');
    copyOfRun(3, () => 'deflate');
    copyOfRun(4, () => SECTIONS);
    copyOfRun(5, (block) => (block === 0 ? 'keep' : encodings[block % encodings.length]!));
    const runs = [1, 2, 3, 4, 5];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...runs, 9), fc.integer({ min: 0, max: COUNT + 20 })), {
          maxLength: 40,
        }),
        fc.boolean(),
        fc.boolean(),
        (picks, input, output) => {
          const want = { input, output };
          const keys = picks.map(([run, ordinal]) => exampleKey(run, ordinal));
          const read = new TextReader(db).rows(keys, want);
          const expected = new Map(
            picks
              .filter(([run, ordinal]) => run !== 9 && ordinal < COUNT)
              .map(([run, ordinal]) => [exampleKey(run, ordinal), asked(whole[ordinal]!, want)]),
          );
          expect(read).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
    for (const run of runs)
      expect([...new TextReader(db).run(run)].map(([, row]) => row)).toEqual(whole);
  });

  it('reads a sections block without its outputs for rows wanted without them, then whole', () => {
    const whole = indexLocated();
    copyOfRun(4, () => SECTIONS);
    const ordinals = [3, BLOCK_SIZE + 5, 2 * BLOCK_SIZE];
    const keys = ordinals.map((ordinal) => exampleKey(4, ordinal));
    const expected = (want: Wanted) =>
      new Map(keys.map((key, i) => [key, asked(whole[ordinals[i]!]!, want)]));
    const read = new TextReader(db);
    for (const want of [
      { input: true, output: false },
      { input: false, output: false },
      { input: true, output: true },
      { input: false, output: true },
      { input: true, output: false },
    ])
      expect(read.rows(keys, want)).toEqual(expected(want));
    // A block cut before its outputs is shorter than the stored one, and one cut before its
    // inputs shorter still.
    const stored = db
      .prepare(`SELECT length(data) FROM run_texts WHERE run_rowid = 4 AND block = 0`)
      .pluck()
      .get() as number;
    const head = db
      .prepare(`SELECT substr(data, 1, ?) FROM run_texts WHERE run_rowid = 4 AND block = 0`)
      .pluck()
      .get(SECTIONS_HEAD_BYTES) as Buffer;
    expect(bytesBefore(head, 'output')).toBeLessThan(stored);
    expect(bytesBefore(head, 'input')).toBeLessThan(bytesBefore(head, 'output'));
  });

  it("reads a located row's own texts from the source, not its block's", () => {
    indexLocated();
    const { ordinal, ranges } = locatedRow(BLOCK_SIZE + 17);
    const span = Math.max(...ranges.map(([, end]) => end)) - Math.min(...ranges.map(([s]) => s));
    const reads = vi.spyOn(fs, 'readSync');
    const rows = new TextReader(db).rows([exampleKey(1, ordinal)], {
      input: true,
      output: false,
    });
    expect(rows.get(exampleKey(1, ordinal))?.unavailable).toBeNull();
    const bytes = reads.mock.calls.reduce(
      (sum, call) => sum + ((call as unknown[])[3] as number),
      0,
    );
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(span);
  });

  it('says why a row cannot be read whichever texts were asked for', () => {
    const whole = indexLocated();
    const edited = locatedRow(0);
    const other = locatedRow(edited.ordinal + 1).ordinal;
    const ordinals = [edited.ordinal, other, BLOCK_SIZE + 1];
    const keys = ordinals.map((ordinal) => exampleKey(1, ordinal));
    // One row's output changed in place, the file's size and mtime kept: its hash tells.
    const [start, end] = edited.ranges[1]!;
    const bytes = fs.readFileSync(file);
    const at = bytes.subarray(start, end).findIndex((b) => b >= 0x61 && b <= 0x79) + start;
    bytes[at] = bytes[at]! + 1;
    fs.writeFileSync(file, bytes);
    fs.utimesSync(file, STAMPED, STAMPED);
    const none = new TextReader(db).rows(keys, { input: false, output: false });
    expect([...none.values()].map((r) => r.unavailable)).toEqual(['source-changed', null, null]);
    const inputs = new TextReader(db).rows(keys, { input: true, output: false });
    expect([...inputs.values()].map((r) => [r.input, r.unavailable])).toEqual([
      ['', 'source-changed'],
      [whole[other]!.input, null],
      [whole[BLOCK_SIZE + 1]!.input, null],
    ]);
    fs.appendFileSync(file, '\n');
    const changed = new TextReader(db).rows(keys, { input: true, output: false });
    expect([...changed.values()].map((r) => [r.input, r.fields, r.unavailable])).toEqual(
      ordinals.map((i) => ['', whole[i]!.fields, 'source-changed']),
    );
    fs.rmSync(file);
    const missing = new TextReader(db).rows(keys, { input: false, output: true });
    expect([...missing.values()].map((r) => [r.input, r.output, r.unavailable])).toEqual(
      keys.map(() => [null, '', 'source-missing']),
    );
  });
});
