import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedJson } from '../../../electron/core/ingest/prepare';
import { wholeRows, type TextInput } from '../../../electron/core/texts/blocks';
import {
  encodeSectionsBlock,
  inflateSection,
  SectionsBlock,
} from '../../../electron/core/texts/sections';
import type { JsonObject } from '../../../shared/model';

const textArb = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constant(''));
const fieldsArb = fc.dictionary(
  fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'score')),
  fc.jsonValue(),
  { maxKeys: 4 },
) as fc.Arbitrary<JsonObject>;
const rowArb = fc.record({
  input: textArb,
  output: textArb,
  fields: fieldsArb,
  target: fc.option(textArb),
  error: fc.option(textArb),
});

type Row = Omit<TextInput, 'fields'> & { fields: JsonObject };

function stored(rows: Row[]): TextInput[] {
  return rows.map((r) => ({ ...r, fields: sortedJson(r.fields) }));
}

/** What a reader gets back of a row: its fields as their stored JSON parses. */
function expected(rows: TextInput[]) {
  return rows.map((r) => ({
    ...r,
    fields: JSON.parse(r.fields) as JsonObject,
    unavailable: null,
  }));
}

describe('the sections layout of an archived block', () => {
  it('gives back every row whole, any text, field key or JSON value', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 0, maxLength: 40 }), (list) => {
        const rows = stored(list);
        const block = new SectionsBlock(encodeSectionsBlock(rows).data);
        expect(block.length).toBe(rows.length);
        expect(wholeRows(block)).toEqual(expected(rows));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the rows asked for, in the order asked, with only the texts asked for', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.boolean(),
        fc.boolean(),
        (list, picks, input, output) => {
          const rows = stored(list);
          const indices = picks.map((p) => p % rows.length);
          const block = new SectionsBlock(encodeSectionsBlock(rows).data);
          expect(block.rows(indices, { input, output })).toEqual(
            indices.map((i) => {
              const whole = expected(rows)[i]!;
              return {
                ...whole,
                input: input ? whole.input : null,
                output: output ? whole.output : null,
              };
            }),
          );
        },
      ),
    );
  });

  it('never inflates the outputs for a row asked for without its output', () => {
    const rows = stored([
      { input: 'a question', output: 'an answer', fields: { score: 1 }, target: null, error: null },
    ]);
    const { data } = encodeSectionsBlock(rows);
    // The outputs are the last section: damage them, and only a read that wants them fails.
    const damaged = Buffer.concat([data.subarray(0, data.length - 4), Buffer.from([0xff, 0xff])]);
    const block = new SectionsBlock(damaged);
    expect(block.rows([0], { input: true, output: false })).toEqual([
      {
        input: 'a question',
        output: null,
        fields: { score: 1 },
        target: null,
        error: null,
        unavailable: null,
      },
    ]);
    expect(() => block.rows([0], { input: false, output: true })).toThrow();
  });

  it('refuses a section holding lines past its rows, which would be no row of the block', () => {
    const rows = stored([
      { input: 'a question', output: 'an answer', fields: {}, target: null, error: null },
    ]);
    const { data } = encodeSectionsBlock(rows);
    // The outputs are the last section, its compressed length the head's last number.
    const outputs = deflateRawSync(Buffer.from('"an answer"\n"a stray line"\n'));
    const damaged = Buffer.concat([data.subarray(0, data.length - data.readUInt32LE(16)), outputs]);
    damaged.writeUInt32LE(outputs.length, 16);
    expect(() => inflateSection(damaged, 'output')).toThrow(/more than its rows/);
    expect(inflateSection(damaged, 'input').text.toString()).toBe('"a question"\n');
  });

  it('counts the bytes of its sections before compression, and compresses them', () => {
    const rows = stored(
      Array.from({ length: 256 }, (_, i) => ({
        input: `Question ${i}: what does the passage above say about the harvest?`,
        output: `The passage says the harvest of year ${i} was late. `.repeat(4),
        fields: { score: i % 3, refused: i % 7 === 0, label: ['a', 'b'][i % 2]! },
        target: i % 2 ? 'late' : null,
        error: null,
      })),
    );
    const { data, bytes } = encodeSectionsBlock(rows);
    expect(bytes).toBeGreaterThan(256 * 300);
    expect(data.length).toBeLessThan(bytes / 4);
  });

  it('refuses bytes in another layout rather than misreading them', () => {
    const json = Buffer.from('[["in","out",{},null,null]]');
    expect(() => new SectionsBlock(deflateRawSync(json))).toThrow(
      /layout this version cannot read/,
    );
    expect(() => new SectionsBlock(Buffer.alloc(3))).toThrow(/layout this version cannot read/);
  });

  it('refuses to write a row whose JSON holds a raw newline, which marks where rows end', () => {
    const row = {
      input: 'in',
      output: 'out',
      fields: '{"a":1,\n"b":2}',
      target: null,
      error: null,
    };
    expect(() => encodeSectionsBlock([row])).toThrow(/raw newline/);
  });
});
