import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../electron/core/columns/decode';
import { loadExamples } from '../../../electron/core/compare/load';
import { writeMechlensRun } from '../../fixtures/formats';
import { makeService, type Harness } from '../../fixtures/service';

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
  it('reads every example exactly once, whatever the chunk size', () => {
    const db = harness.service.db;
    const runRowid = (
      db.prepare(`SELECT rowid FROM runs WHERE id = 'run'`).get() as { rowid: number }
    ).rowid;
    const expected = (
      db
        .prepare(
          `SELECT rowid, example_id AS id, input_hash AS input, output_hash AS output, error, fields
           FROM examples WHERE run_rowid = ? ORDER BY rowid`,
        )
        .all(runRowid) as { rowid: number; input: string; output: string; fields: string }[]
    ).map((r) => ({
      ...r,
      input: hashKey(r.input),
      output: hashKey(r.output),
      fields: JSON.parse(r.fields) as unknown,
    }));
    expect(expected.length).toBe(tricky.length + 20);
    for (const chunk of [1, 2, 3, 7, 26, 27, 1000]) {
      const loaded = loadExamples(db, runRowid, chunk).sort((a, b) => a.rowid - b.rowid);
      expect(loaded).toEqual(expected);
    }
  });
});
