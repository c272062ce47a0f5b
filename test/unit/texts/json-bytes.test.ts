import { describe, expect, it } from 'vitest';
import { sha1 } from '../../../electron/core/ingest/prepare';
import { JsonBytes } from '../../../electron/core/texts/json-bytes';
import {
  encodeLocatedBlock,
  type LocatedInput,
  type SourceStamp,
} from '../../../electron/core/texts/located';
import type { TextRange } from '../../../electron/core/texts/locate';

/** The block as one string, as it was written before the bytes were written by hand. */
function asString(file: SourceStamp, rows: LocatedInput[]): Buffer {
  const ref = (text: string, range: TextRange | null, hash: string) =>
    range === null ? JSON.stringify(text) : `[${range.start},${range.end},"${hash.slice(0, 16)}"]`;
  const parts = rows.map(
    (r) =>
      `[${ref(r.input, r.located.input, r.inputHash)},${ref(r.output, r.located.output, r.outputHash)},` +
      `${r.fields},${JSON.stringify(r.target)},${JSON.stringify(r.error)}]`,
  );
  const head = `{"path":${JSON.stringify(file.path)},"size":${file.size},"mtimeMs":${file.mtimeMs}`;
  return Buffer.from(`${head},"rows":[${parts.join(',')}]}`, 'utf8');
}

const stamp: SourceStamp = {
  path: '/data/runs/é 🧪.json',
  size: 123_456,
  mtimeMs: 1764617340123.456,
};

function row(i: number, input: string, located: boolean): LocatedInput {
  const at = i * 1_000_003;
  return {
    input,
    output: `out ${i}`,
    fields: JSON.stringify({ n: i, tag: i % 3 ? 'plain' : 'naïve ✓' }),
    target: i % 4 ? null : `t\u2028${i}`,
    error: i % 5 ? null : 'boom "quoted"',
    located: {
      input: located ? { start: at, end: at + input.length + 2 } : null,
      output:
        i % 2 === 0
          ? null
          : i % 4 === 1
            ? { start: 2 ** 31 + at, end: 2 ** 33 + at }
            : { start: at + 10, end: at + 20 },
    },
    inputHash: sha1(input),
    outputHash: sha1(`out ${i}`),
  };
}

describe('located block bytes', () => {
  it('are the UTF-8 of the block written as one string: offsets past 2^31, non-ASCII, lone surrogates', () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      row(i, i % 7 ? `in ${i}` : `lone \ud800 ${i} 😀`, i % 3 !== 0),
    );
    expect(encodeLocatedBlock(stamp, rows).equals(asString(stamp, rows))).toBe(true);
  });

  it('grow for inline texts of any length, and a short block after a long one keeps none of its bytes', () => {
    const sizes = [70_000, 200_000, 3, 65_400, 1_500_000, 1];
    for (const size of sizes) {
      const rows = [row(1, 'x'.repeat(size), false), row(2, 'é'.repeat(size >> 1), false)];
      const data = encodeLocatedBlock(stamp, rows);
      expect(data.equals(asString(stamp, rows))).toBe(true);
    }
    const short = [row(3, 'short', true)];
    expect(encodeLocatedBlock(stamp, short).equals(asString(stamp, short))).toBe(true);
    // A block whose encoding throws after its first rows leaves none of them to the next.
    const broken = [row(4, 'fine', true), { ...row(5, 'broken', true), located: undefined }];
    expect(() => encodeLocatedBlock(stamp, broken as LocatedInput[])).toThrow(TypeError);
    expect(encodeLocatedBlock(stamp, short).equals(asString(stamp, short))).toBe(true);
  });
});

describe('JsonBytes', () => {
  it('has room after a text that fills the buffer for the bytes and digits that follow it', () => {
    // Three bytes per code unit: the text takes all the room it asks for, up to the end of the
    // first buffer (64 KiB) for one of these leads.
    for (let lead = 0; lead < 3; lead++) {
      const out = new JsonBytes();
      const text = '✓'.repeat(Math.floor((64 * 1024 - lead) / 3));
      out.text('x'.repeat(lead));
      out.text(text);
      for (let i = 0; i < 4; i++) {
        out.byte(0x2c);
        out.digits(2 ** 31 - 1);
        out.ascii('0123456789abcdef0123', 16);
      }
      expect(out.take().toString('utf8')).toBe(
        `${'x'.repeat(lead)}${text}${',21474836470123456789abcdef'.repeat(4)}`,
      );
    }
  });

  it('writes integers as String does, and starts again empty after take', () => {
    const out = new JsonBytes();
    const numbers = [0, -0, 7, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 12_345_678];
    for (const n of numbers) {
      out.ensure(0);
      out.digits(n);
      out.byte(0x2c);
    }
    expect(out.take().toString('latin1')).toBe(numbers.map((n) => `${String(n)},`).join(''));
    out.text('ab');
    expect(out.take().toString('utf8')).toBe('ab');
  });
});
