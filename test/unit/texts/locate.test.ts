import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asciiLiteral,
  MIN_LOCATED_CHARS,
  TextLocator,
  type LocatedTexts,
  type TextRange,
} from '../../../electron/core/texts/locate';
import {
  bytewiseLocate,
  locatedExamples,
  mechlensLikeText,
  writeJson,
  type LocatedExample,
  type Writer,
} from '../../fixtures/located';

/** What each found range of `bytes` (from file offset `offset`) parses to. */
function check(bytes: Buffer, found: LocatedTexts[], list: LocatedExample[], offset = 0) {
  let located = 0;
  found.forEach((f, i) => {
    for (const key of ['input', 'output'] as const) {
      const range = f[key];
      if (!range) continue;
      located++;
      const literal = bytes.toString('utf8', range.start - offset, range.end - offset);
      expect(JSON.parse(literal)).toBe(list[i]![key]);
    }
  });
  return located;
}

const moved = (range: TextRange | null, by: number) =>
  range && { start: range.start + by, end: range.end + by };

const long = (s: string) => `${s} ${'padding words to make it worth a range '.repeat(2)}`;

describe('the text locator', () => {
  it.each<[Writer, number]>([
    ['js', 0],
    ['js', 2],
    ['python', 0],
    ['python', 4],
  ])(
    'finds every long enough text of a %s-written file (indent %i), in any member order',
    (writer, indent) => {
      const list = locatedExamples(300);
      const bytes = Buffer.from(mechlensLikeText(list, writer, indent));
      const found = new TextLocator().locate(bytes, 0, list);
      const long = list
        .flatMap((e) => [e.input, e.output])
        .filter((t) => t.length >= MIN_LOCATED_CHARS);
      expect(check(bytes, found, list)).toBe(long.length);
    },
  );

  it('writes the ASCII form as Python json.dumps does', () => {
    // json.dumps('é😀\ud800\x7f"\n') in CPython 3.12.
    expect(asciiLiteral(JSON.stringify('é😀\ud800\u007f"\n'))).toBe(
      '"\\u00e9\\ud83d\\ude00\\ud800\\u007f\\"\\n"',
    );
    expect(asciiLiteral('"plain"')).toBe('"plain"');
  });

  it('locates ASCII, non-ASCII, escaped, emoji and lone-surrogate texts', () => {
    const texts = [
      long('plain ascii'),
      long('Straße 東京 мир'),
      long('"quotes" \\ and \t\n\r\b\f \u0001'),
      long('emoji 😀 👩‍🔬'),
      long('lone \ud800 and \udc00 halves'),
    ];
    const list = texts.map((t, i) => ({ id: `e${i}`, input: t, output: `${t} (out)`, fields: {} }));
    for (const writer of ['js', 'python'] as const) {
      const bytes = Buffer.from(mechlensLikeText(list, writer));
      const found = new TextLocator().locate(bytes, 0, list);
      expect(check(bytes, found, list)).toBe(texts.length * 2);
    }
  });

  it('carries inline what a writer escaped another way, and short texts', () => {
    const list = [
      { id: 'a', input: long('a/slash'), output: long('é uppercase'), fields: {} },
      { id: 'b', input: 'short', output: long('found'), fields: {} },
    ];
    const text = writeJson({ examples: list }, 'python')
      .replace('a/slash', 'a\\/slash')
      .replace('\\u00e9', '\\u00E9');
    const bytes = Buffer.from(text);
    const found = new TextLocator().locate(bytes, 0, list);
    expect(found[0]).toEqual({ input: null, output: null });
    expect(found[1]!.input).toBeNull();
    expect(check(bytes, found, list)).toBe(1);
  });

  it('gives file offsets for a batch of elements read from the middle of a file', () => {
    const list = locatedExamples(40);
    const text = `{"examples":[${list.map((e) => JSON.stringify(e)).join(',')}]}`;
    const whole = Buffer.from(text);
    const start = whole.indexOf('{"id":"ex-20"');
    const end = whole.lastIndexOf(']');
    const locator = new TextLocator();
    const first = locator.locate(whole.subarray(0, start), 0, list.slice(0, 20));
    const second = locator.locate(whole.subarray(start, end), start, list.slice(20));
    expect(check(whole, [...first, ...second], list)).toBeGreaterThan(60);
  });

  it('never scans far for a miss, and stops looking when a file misses everything', () => {
    const list = locatedExamples(400).map((e) => ({
      ...e,
      input: long(e.input),
      output: long(e.output),
    }));
    const bytes = Buffer.from(mechlensLikeText(list, 'js').replaceAll(' ', '\\u0020'));
    const locator = new TextLocator();
    const found = locator.locate(bytes, 0, list);
    expect(found.every((f) => f.input === null && f.output === null)).toBe(true);
    expect(locator.gaveUp).toBe(true);
  });

  it('finds the examples after a member larger than the usual slack', () => {
    const list = locatedExamples(12).map((e) => ({ ...e, input: long(e.input) }));
    list[3]!.fields = { blob: 'x'.repeat(300_000) };
    const bytes = Buffer.from(mechlensLikeText(list, 'js'));
    const found = new TextLocator().locate(bytes, 0, list);
    // The window doubles with each example missed in a row until it reaches past the blob, and
    // those missed meanwhile are looked for again between the examples found around them.
    expect(found.every((f) => f.input !== null)).toBe(true);
    check(bytes, found, list);
    // The same from a batch read further into a file: those looked for again are file offsets.
    const offset = 1000;
    const batch = new TextLocator().locate(bytes, offset, list);
    expect(batch).toEqual(
      found.map((f) => ({ input: moved(f.input, offset), output: moved(f.output, offset) })),
    );
  });

  it('finds what the byte search finds, in random files of every kind of text', () => {
    const pool = fc.constantFrom(
      long('the same long text, written in more than one place'),
      long('a tab\tand a "quote" and a \\ backslash'),
      long('Straße 東京 мир 😀 👩‍🔬'),
    );
    const text = fc.oneof(
      pool,
      fc.string({ unit: 'binary', minLength: 30, maxLength: 120 }),
      fc.string({ unit: 'grapheme', minLength: 30, maxLength: 120 }),
      fc.string({
        unit: fc.constantFrom('a', 'é', '😀', '\ud800', '\n', '"', '\\', ' '),
        minLength: 40,
        maxLength: 90,
      }),
    );
    const fields = fc.record({
      nested: fc.jsonValue({ maxDepth: 3 }),
      text: fc.option(pool),
    });
    const example = fc.record({ input: text, output: text, fields });
    fc.assert(
      fc.property(
        fc.array(example, { maxLength: 25 }),
        fc.constantFrom<Writer>('js', 'python'),
        fc.constantFrom(0, 2),
        (examples, writer, indent) => {
          const list = examples.map((e, i) => ({ ...e, id: `e${i}` }));
          const bytes = Buffer.from(mechlensLikeText(list, writer, indent));
          expect(new TextLocator().locate(bytes, 0, list)).toEqual(bytewiseLocate(bytes, list));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads texts off the literals where it can, and searches those a writer escaped', () => {
    const plain = long('plain words, nothing to escape');
    const escaped = long('a new\nline');
    const list = [{ id: 'a', input: plain, output: escaped, fields: {} }];
    const bytes = Buffer.from(JSON.stringify({ examples: list }));
    const [found] = new TextLocator().locate(bytes, 0, list);
    expect(bytes.toString('utf8', found!.input!.start, found!.input!.end)).toBe(`"${plain}"`);
    expect(bytes.toString('utf8', found!.output!.start, found!.output!.end)).toBe(
      JSON.stringify(escaped),
    );
  });

  it('takes no literal whose bytes read as Latin-1 would be the text, only its UTF-8', () => {
    // Both take 60 bytes: 'Ã©' is 2 units whose Latin-1 bytes are the UTF-8 of 'é'.
    const text = 'Ã©'.repeat(30);
    const list = [{ id: 'a', input: text, output: 'short', fields: {} }];
    const bytes = Buffer.from(
      `{"decoy":"${'é'.repeat(30)}","examples":[${JSON.stringify(list[0])}]}`,
    );
    const [found] = new TextLocator().locate(bytes, 0, list);
    expect(found!.input!.start).toBe(bytes.indexOf(`"${text}"`));
    expect(check(bytes, [found!], list)).toBe(1);
  });

  it('locates a text longer than the compare buffer holds, ASCII or not', () => {
    const list = [
      {
        id: 'a',
        input: 'ascii words '.repeat(7_000),
        output: 'épée 東京 '.repeat(9_000),
        fields: {},
      },
    ];
    const bytes = Buffer.from(JSON.stringify({ examples: list }));
    expect(check(bytes, new TextLocator().locate(bytes, 0, list), list)).toBe(2);
  });

  it('gives ranges that parse to their text, or none, for random texts and either writer', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', minLength: 0, maxLength: 80 }),
      fc.string({ unit: 'grapheme', minLength: 20, maxLength: 80 }),
      fc.constantFrom('', '"', '\\', '\ud800', '😀'.repeat(20), 'a/b '.repeat(20)),
    );
    const example = fc.record({ input: text, output: text, fields: fc.constant({}) });
    fc.assert(
      fc.property(
        fc.array(example, { maxLength: 30 }),
        fc.constantFrom<Writer>('js', 'python'),
        fc.constantFrom(0, 2),
        fc.boolean(),
        (examples, writer, indent, escapeSlashes) => {
          const list = examples.map((e, i) => ({ ...e, id: `e${i}` }));
          const text = mechlensLikeText(list, writer, indent);
          // `\/` is a valid escape no writer here uses: those texts must come back unlocated.
          const bytes = Buffer.from(escapeSlashes ? text.replaceAll('/', '\\/') : text);
          check(bytes, new TextLocator().locate(bytes, 0, list), list);
        },
      ),
      { numRuns: 200 },
    );
  });
});
