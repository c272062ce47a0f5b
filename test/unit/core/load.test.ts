import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../electron/core/columns/decode';
import { loadRunExamples } from '../../../electron/core/compare/load';
import { sha1 } from '../../../electron/core/ingest/prepare';
import { writeMechlensRun } from '../../fixtures/formats';
import { makeService, type Harness } from '../../fixtures/service';
import { storedExamples } from '../../fixtures/stored-examples';

let harness: Harness;

/** Ids and fields that would break a naive join: separators, quotes, JSON escapes, astral text. */
const tricky = ['a,b', 'say "hi"', 'back\\slash', 'line\u2028sep', '😀', 'x'.repeat(300)];

beforeAll(async () => {
  harness = makeService();
  const root = path.join(harness.dir, 'lib');
  writeMechlensRun(root, {
    id: 'run',
    examples: [
      ...tricky.map((id, i) => ({
        id,
        input: `in ${i}`,
        output: `out ${i}`,
        fields: { note: `"${id}",[]`, score: i, nested: { list: [i, null] } },
      })),
      ...Array.from({ length: 20 }, (_, i) => ({ id: `ex-${i}`, input: 'same', output: `o${i}` })),
    ],
  });
  await harness.service.index([root]);
}, 60_000);

afterAll(() => harness.close());

describe('loading a run for comparison', () => {
  it('gives every example exactly once, with the hashes of its stored texts and its fields', () => {
    const db = harness.service.db;
    const runRowid = db.prepare(`SELECT rowid FROM runs WHERE id = 'run'`).pluck().get() as number;
    const expected = storedExamples(db, runRowid)
      .map((r) => ({
        id: r.example_id,
        rowid: r.rowid,
        input: hashKey(sha1(r.input)),
        output: hashKey(sha1(r.output)),
        error: r.error,
        fields: JSON.parse(r.fields) as unknown,
      }))
      .sort((a, b) => a.rowid - b.rowid);
    expect(expected.length).toBe(tricky.length + 20);
    const loaded = loadRunExamples(db, runRowid).sort((a, b) => a.rowid - b.rowid);
    expect(loaded).toEqual(expected);
  });
});
