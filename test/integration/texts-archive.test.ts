import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { sha1, sortedJson } from '../../electron/core/ingest/prepare';
import { CancelledError } from '../../electron/core/jobs/protocol';
import { prepareFillConnection } from '../../electron/core/search/fill';
import {
  archiveAll,
  archiveSlice,
  blocksToArchive,
  UNARCHIVED,
  type ArchiveResult,
} from '../../electron/core/texts/archive';
import { BLOCK_SIZE, type BlockEncoding } from '../../electron/core/texts/blocks';
import {
  decodeTextBlock,
  encodeSourceBlock,
  LOCATED,
  SourceFiles,
} from '../../electron/core/texts/located';
import type { TextRow } from '../../electron/core/texts/blocks';
import { TextLocator } from '../../electron/core/texts/locate';
import { asStored, locatedExamples, restoreBlocks, writeMechlensLike } from '../fixtures/located';
import { tempDir } from '../fixtures/tmp';

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;
let db: Db;

function open(): Db {
  const opened = openDatabase(dbPath);
  opened.pragma('foreign_keys = OFF');
  prepareFillConnection(opened);
  return opened;
}

/**
 * Writes a run file of `count` examples and stores its blocks as the indexer would: located,
 * or as JSON when the source may not be located (`local` false: a copy fetched from a store).
 */
/** Examples filling this many blocks (a fraction for a partial last block). */
function examplesIn(blocks: number): number {
  return Math.round(blocks * BLOCK_SIZE);
}

function indexRun(run: number, count: number, local = true): TextRow[] {
  const file = path.join(tmp.dir, `run-${run}.json`);
  const list = locatedExamples(count, run);
  writeMechlensLike(file, list, run % 2 ? 'js' : 'python', 2);
  const stat = fs.statSync(file);
  const stamp = { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
  const stored = asStored(list);
  const located = new TextLocator().locate(fs.readFileSync(file), 0, stored);
  const rows = stored.map((e, i) => ({
    input: e.input,
    output: e.output,
    fields: sortedJson(e.fields as never),
    target: null,
    error: i % 9 ? null : `error ${i}`,
    located: located[i]!,
    inputHash: sha1(e.input),
    outputHash: sha1(e.output),
  }));
  const insert = db.prepare(`INSERT INTO run_texts VALUES (?, ?, ?, ?)`);
  for (let block = 0; block * BLOCK_SIZE < rows.length; block++) {
    const slice = rows.slice(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE);
    const { encoding, data } = encodeSourceBlock(local ? stamp : null, slice);
    insert.run(run, block, encoding, data);
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

/** A run's rows as a reader would decode them, whichever way each block is stored now. */
function readRun(run: number): TextRow[] {
  const files = new SourceFiles();
  const blocks = db
    .prepare(`SELECT encoding, data FROM run_texts WHERE run_rowid = ? ORDER BY block`)
    .all(run) as { encoding: BlockEncoding; data: Buffer }[];
  return blocks.flatMap(({ encoding, data }) => decodeTextBlock(encoding, data, files));
}

function encodings(): string[] {
  return db
    .prepare(`SELECT encoding FROM run_texts ORDER BY run_rowid, block`)
    .pluck()
    .all() as string[];
}

beforeEach(() => {
  tmp = tempDir('pairwise-archive-');
  dbPath = path.join(tmp.dir, 'library.db');
  db = open();
});
afterEach(() => {
  db.close();
  tmp.cleanup();
});

describe('the texts archive', () => {
  it('finds the blocks left to archive through their own index, not by reading every block', () => {
    const plan = (sql: string, ...params: number[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    const plans = [
      plan(`SELECT count(*) FROM run_texts WHERE ${UNARCHIVED}`),
      plan(`SELECT run_rowid, block, length(data) FROM run_texts WHERE ${UNARCHIVED}`),
      plan(
        `SELECT run_rowid, block FROM run_texts WHERE ${UNARCHIVED} AND (run_rowid, block) > (?, ?)
         ORDER BY run_rowid, block LIMIT ?`,
        0,
        0,
        1,
      ),
    ];
    for (const detail of plans)
      expect(detail).toMatch(/USING (COVERING )?INDEX run_texts_unarchived/);
  });

  it('rewrites located and json blocks as sections, and resumes after a crash mid-way', async () => {
    const one = indexRun(1, examplesIn(2.5));
    const two = indexRun(2, examplesIn(1.1));
    const three = indexRun(3, examplesIn(0.1), false);
    expect(blocksToArchive(db)).toBe(6);
    const first = await archiveSlice(
      db,
      // A batch of 64, but a slice ends when its time is up, after the block it compressed.
      { after: null, startBatch: 64, sliceMs: 0 },
      new AbortController().signal,
    );
    expect(first).toMatchObject({ more: true, archived: 1, left: [] });
    // A crash here: the process dies, the next pass starts over from the library alone.
    db.close();
    db = open();
    expect(encodings()).toEqual(['sections', LOCATED, LOCATED, LOCATED, LOCATED, 'json']);
    expect(readRun(1)).toEqual(one);
    const slices: ArchiveResult[] = [];
    await archiveAll(db, new AbortController().signal, (s) => slices.push(s));
    expect(encodings()).toEqual(Array(6).fill('sections'));
    expect(slices.reduce((n, s) => n + s.archived, 0)).toBe(5);
    expect(slices.at(-1)!.more).toBe(false);
    expect(blocksToArchive(db)).toBe(0);
    expect(readRun(1)).toEqual(one);
    expect(readRun(2)).toEqual(two);
    expect(readRun(3)).toEqual(three);
    // Archived, the texts no longer need their source.
    fs.rmSync(path.join(tmp.dir, 'run-1.json'));
    expect(readRun(1)).toEqual(one);
  });

  it('rewrites blocks archived before sections (one deflate stream each) as sections', async () => {
    const one = indexRun(1, examplesIn(1.5));
    const two = indexRun(2, examplesIn(0.5), false);
    for (const run of [1, 2]) restoreBlocks(db, run, () => 'deflate');
    expect(encodings()).toEqual(['deflate', 'deflate', 'deflate']);
    expect(blocksToArchive(db)).toBe(3);
    await archiveAll(db, new AbortController().signal);
    expect(encodings()).toEqual(Array(3).fill('sections'));
    expect(readRun(1)).toEqual(one);
    expect(readRun(2)).toEqual(two);
  });

  it('leaves the blocks of a changed or deleted source located, and reports them', async () => {
    const one = indexRun(1, examplesIn(1.5));
    const two = indexRun(2, examplesIn(1.1));
    indexRun(3, examplesIn(0.3));
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(tmp.dir, 'run-2.json'), later, later);
    fs.rmSync(path.join(tmp.dir, 'run-3.json'));
    const slices: ArchiveResult[] = [];
    await archiveAll(db, new AbortController().signal, (s) => slices.push(s));
    expect(encodings()).toEqual(['sections', 'sections', LOCATED, LOCATED, LOCATED]);
    expect(slices.flatMap((s) => s.left)).toEqual([
      { run: 2, block: 0, reason: 'source-changed' },
      { run: 2, block: 1, reason: 'source-changed' },
      { run: 3, block: 0, reason: 'source-missing' },
    ]);
    expect(readRun(1)).toEqual(one);
    const changed = readRun(2);
    expect(changed.filter((r) => r.unavailable === 'source-changed').length).toBeGreaterThan(
      BLOCK_SIZE,
    );
    // Rows whose texts were both inline are whole; the others say why they are not.
    for (const [i, row] of changed.entries())
      if (row.unavailable === null) expect(row).toEqual(two[i]);
  });

  it('keeps the block a run re-indexed between its read and its swap was given', async () => {
    indexRun(1, examplesIn(0.5));
    const other = open();
    let calls = 0;
    // The slice's clock, read once at its start and once after compressing the block: in
    // between, another connection stores the run again (the indexer re-indexing the file).
    const now = () => {
      if (++calls === 2)
        other.prepare(`UPDATE run_texts SET data = ? WHERE run_rowid = 1`).run(Buffer.from('[]'));
      return 0;
    };
    const slice = await archiveSlice(
      db,
      { after: null, startBatch: 4, sliceMs: 1000 },
      new AbortController().signal,
      now,
    );
    other.close();
    expect(slice).toMatchObject({ more: false, archived: 0 });
    expect(db.prepare(`SELECT encoding, data FROM run_texts`).get()).toEqual({
      encoding: LOCATED,
      data: Buffer.from('[]'),
    });
  });

  it('stops at a cancel, leaving every block as it was', async () => {
    indexRun(1, examplesIn(1.5));
    const controller = new AbortController();
    controller.abort();
    await expect(archiveAll(db, controller.signal)).rejects.toBeInstanceOf(CancelledError);
    expect(encodings()).toEqual([LOCATED, LOCATED]);
  });
});
