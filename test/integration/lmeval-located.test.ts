import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { indexUnit } from '../../electron/core/ingest/index-unit';
import { namedLocatableFiles } from '../../electron/core/ingest/locate-runs';
import { IndexStore } from '../../electron/core/ingest/store';
import type { SourceUnit } from '../../electron/core/ingest/types';
import { prepareFillConnection } from '../../electron/core/search/fill';
import { archiveAll } from '../../electron/core/texts/archive';
import { TextReader } from '../../electron/core/texts/read';
import type { ImportedRun } from '../../shared/model';
import { writeLmEval, type LmEvalOptions } from '../fixtures/formats';
import { storedExamples } from '../fixtures/stored-examples';
import { tempDir } from '../fixtures/tmp';

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

function scratch(): { dir: string; db(name: string): Db } {
  const t = tempDir();
  const open: Db[] = [];
  cleanup = () => {
    for (const db of open) db.close();
    t.cleanup();
  };
  return {
    dir: t.dir,
    db: (name) => {
      const db = openDatabase(path.join(t.dir, `${name}.db`));
      prepareFillConnection(db);
      open.push(db);
      return db;
    },
  };
}

/** Docs whose prompt and answer are long enough to be located (short texts stay inline). */
const LONG: LmEvalOptions = {
  prompt: (doc) => `Q: In a few careful words, what is six times seven for question ${doc}?\nA:`,
  answers: Array.from(
    { length: 40 },
    (_, i) => `Working it through step by step for doc ${i}, the product is plain. #### 42`,
  ),
};

async function index(db: Db, unit: SourceUnit): Promise<void> {
  const task = { unit, folder: null, dbPath: db.name };
  const result = await indexUnit(task, new IndexStore(db), new AbortController().signal);
  expect(result).toMatchObject({ status: 'imported' });
}

function encodings(db: Db): string[] {
  return db.prepare(`SELECT DISTINCT encoding FROM run_texts`).pluck().all() as string[];
}

function unavailable(db: Db): (string | null)[] {
  const rowid = db.prepare(`SELECT rowid FROM runs`).pluck().get() as number;
  return [...new TextReader(db).run(rowid)].map(([, row]) => row.unavailable);
}

function lmEvalUnit(results: string, samples: string[]): SourceUnit {
  return { path: results, kind: 'lm-eval', files: [results, ...samples] };
}

describe('lm-eval texts left in their samples file', () => {
  it('are located, read back as the copied texts, and archived', async () => {
    const s = scratch();
    const { results, samples } = writeLmEval(s.dir, LONG);
    const located = s.db('located');
    await index(located, lmEvalUnit(results, [samples!]));
    expect(encodings(located)).toEqual(['located']);
    // The same files fetched from a store are temporary copies: their texts are copied.
    const copied = s.db('copied');
    await index(copied, { ...lmEvalUnit(results, [samples!]), source: 's3://bucket/run' });
    expect(encodings(copied)).toEqual(['json']);
    expect(storedExamples(located)).toEqual(storedExamples(copied));
    expect(storedExamples(located)).toHaveLength(40);

    await archiveAll(located, new AbortController().signal);
    expect(encodings(located)).toEqual(['sections']);
    fs.rmSync(samples!);
    expect(storedExamples(located)).toEqual(storedExamples(copied));
  });

  it('make the rows of a run whose samples file was edited source-changed', async () => {
    const s = scratch();
    const { results, samples } = writeLmEval(s.dir, LONG);
    const db = s.db('library');
    await index(db, lmEvalUnit(results, [samples!]));
    expect(unavailable(db).every((reason) => reason === null)).toBe(true);
    fs.appendFileSync(samples!, '\n');
    expect(new Set(unavailable(db))).toEqual(new Set(['source-changed']));
  });

  it('are located for samples whose results file is missing', async () => {
    const s = scratch();
    const { results, samples } = writeLmEval(s.dir, LONG);
    fs.rmSync(results);
    const db = s.db('library');
    await index(db, { path: samples!, kind: 'lm-eval', files: [samples!] });
    expect(encodings(db)).toEqual(['located']);
  });

  it('are copied when a run merges docs from two samples files', async () => {
    const s = scratch();
    const { results, samples } = writeLmEval(s.dir, LONG);
    const more = {
      ...LONG,
      answers: [...LONG.answers!, 'One more doc, answered at length. #### 42'],
    };
    const { samples: asJson } = writeLmEval(s.dir, { ...more, layout: 'samples-json' });
    const db = s.db('library');
    await index(db, lmEvalUnit(results, [samples!, asJson!]));
    expect(storedExamples(db)).toHaveLength(41);
    expect(encodings(db)).toEqual(['json']);
  });

  it('are never looked for in a compressed file', () => {
    const s = scratch();
    const file = path.join(s.dir, 'samples_arith_2026-09-18T09-12-44.jsonl.zst');
    fs.writeFileSync(file, 'compressed');
    const run = {} as ImportedRun;
    const stats = new Map([[file, { size: 10, mtimeMs: fs.statSync(file).mtimeMs }]]);
    expect(namedLocatableFiles(new Map([[run, file]]), stats).size).toBe(0);
  });
});
