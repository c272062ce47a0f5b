import { describe, expect, it } from 'vitest';
import type { ImportedExample, JsonObject } from '../../../shared/model';
import { decodeRunColumns } from '../../../electron/core/columns/decode';
import {
  prepareExampleList,
  RunBuilders,
  sha1,
  type PreparedExamples,
} from '../../../electron/core/ingest/prepare';
import type { LocatedTexts } from '../../../electron/core/texts/locate';
import type { SourceStamp } from '../../../electron/core/texts/located';

/** Fields of several shapes, the same keys in another order among them, and none at all. */
function fieldsOf(i: number): JsonObject {
  switch (i % 5) {
    case 0:
      return { score: i, label: `l${i % 3}` };
    case 1:
      return { label: `l${i % 3}`, score: i };
    case 2:
      return { score: i };
    case 3:
      return {};
    default:
      return { extra: [i, { b: 1, a: 2 }], score: null, label: i % 2 === 0 };
  }
}

const examples: ImportedExample[] = Array.from({ length: 700 }, (_, i) => ({
  // Out of id order past the first few hundred, as some runs are.
  id: i < 400 ? `ex-${String(i).padStart(4, '0')}` : `ex-${String(1100 - i).padStart(4, '0')}x`,
  input: `prompt ${i % 250}`,
  output: `answer ${i}`,
  fields: fieldsOf(i),
  target: i % 7 === 0 ? `t${i}` : null,
  error: i % 11 === 0 ? `error ${i}` : null,
}));

const stamp: SourceStamp = { path: '/runs/a.json', size: 1_000_000, mtimeMs: 1_700_000_000_000 };
const located: LocatedTexts[] = examples.map((_, i) => ({
  input: i % 3 === 0 ? null : { start: 100 * i, end: 100 * i + 20 },
  output: { start: 100 * i + 30, end: 100 * i + 90 },
}));

function prepareIn(batches: number[]): PreparedExamples {
  const builders = new RunBuilders(stamp);
  const all: PreparedExamples = { blocks: [], columns: null };
  let from = 0;
  batches.forEach((size, b) => {
    const last = b === batches.length - 1;
    const to = last ? examples.length : from + size;
    const part = prepareExampleList(
      examples.slice(from, to),
      builders,
      last,
      located.slice(from, to),
    );
    all.blocks.push(...part.blocks);
    all.columns = part.columns;
    from = to;
  });
  return all;
}

const sortKeys = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
        : v,
    ),
  ) as unknown;

describe('preparing a run in batches', () => {
  it('gives the blocks and column store of the whole run at once', () => {
    const whole = prepareIn([examples.length]);
    expect(whole.blocks.map((b) => b.block)).toEqual([0, 1, 2]);
    for (const batches of [
      [100, 300, 57, 0],
      [1, 255, 256, 1],
      [699, 1],
    ]) {
      const batched = prepareIn(batches);
      expect(batched.blocks.map((b) => [b.block, b.encoding])).toEqual(
        whole.blocks.map((b) => [b.block, b.encoding]),
      );
      batched.blocks.forEach((b, i) =>
        expect(Buffer.from(b.data).equals(Buffer.from(whole.blocks[i]!.data))).toBe(true),
      );
      expect(Buffer.from(batched.columns!).equals(Buffer.from(whole.columns!))).toBe(true);
    }
  });

  it('keeps each example fields, hashes and error in the column store, whatever its shape', () => {
    const { columns } = prepareIn([100, 300]);
    const decoded = decodeRunColumns(Buffer.from(columns!))!;
    const byId = new Map(decoded.map((row) => [row.id, row]));
    examples.forEach((example, ordinal) => {
      const row = byId.get(example.id)!;
      expect(row.rowid).toBe(ordinal);
      expect(Buffer.from(row.input, 'latin1').toString('hex')).toBe(sha1(example.input));
      expect(Buffer.from(row.output, 'latin1').toString('hex')).toBe(sha1(example.output));
      expect(row.error).toBe(example.error);
      expect(row.fields).toEqual(sortKeys(example.fields));
    });
  });
});
