import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocatedTexts, readLocatedRefs } from '../../../electron/core/search/located-refs';
import { encodeLocatedBlock, type LocatedInput } from '../../../electron/core/texts/located';

const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom('"', '\\', '\\"', '],[', '{"rows":[', '"]', '\n', 'é😀'),
);

/** A row as the indexer hands it over: each text located or inline, fields of any shape. */
const rowArb = fc
  .record({
    input: tricky,
    output: tricky,
    inputAt: fc.option(fc.nat({ max: 2 ** 40 })),
    outputAt: fc.option(fc.nat({ max: 2 ** 40 })),
    fields: fc.jsonValue(),
    target: fc.option(tricky),
    error: fc.option(tricky),
  })
  .map((r): LocatedInput => ({
    input: r.input,
    output: r.output,
    fields: JSON.stringify({ value: r.fields }),
    target: r.target,
    error: r.error,
    located: {
      input: r.inputAt === null ? null : { start: r.inputAt, end: r.inputAt + 9 },
      output: r.outputAt === null ? null : { start: r.outputAt, end: r.outputAt + 5 },
    },
    inputHash: '0123456789abcdef0123',
    outputHash: 'fedcba9876543210fedc',
  }));

/** What JSON.parse of the whole block gives for each slot. */
function parsedWhole(data: Buffer, first: number, texts: LocatedTexts): void {
  const block = JSON.parse(data.toString('utf8')) as { rows: [unknown, unknown][] };
  block.rows.forEach(([input, output], i) => {
    texts.set(2 * (first + i), input as string);
    texts.set(2 * (first + i) + 1, output as string);
  });
}

function slots(texts: LocatedTexts, n: number) {
  return Array.from({ length: 2 * n }, (_, slot) =>
    texts.located(slot)
      ? [texts.start[slot], texts.end[slot], texts.prefix(slot)]
      : texts.inline.get(slot),
  );
}

describe('a located block read for its refs alone', () => {
  it('gives the refs JSON.parse of the whole block gives, whatever the fields hold', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 8 }), fc.nat({ max: 5 }), (rows, first) => {
        const file = { path: '/a "quoted",\\ path,"rows":[', size: 12, mtimeMs: 1.5 };
        const data = encodeLocatedBlock(file, rows);
        const fast = new LocatedTexts(first + rows.length);
        const read = readLocatedRefs(data, first, fast);
        const whole = new LocatedTexts(first + rows.length);
        parsedWhole(data, first, whole);
        expect(read).toEqual({ head: file, rows: rows.length });
        expect(slots(fast, first + rows.length)).toEqual(slots(whole, first + rows.length));
      }),
      { numRuns: 300 },
    );
  });

  it('declines bytes laid out otherwise, for the caller to parse them whole', () => {
    const spaced = Buffer.from(
      '{"path":"f","size":1,"mtimeMs":1,"rows":[ [[1,2,"ab"],"x",{},null,null]]}',
    );
    expect(readLocatedRefs(spaced, 0, new LocatedTexts(1))).toBeNull();
    expect(
      readLocatedRefs(Buffer.from('[["a","b",{},null,null]]'), 0, new LocatedTexts(1)),
    ).toBeNull();
  });
});
