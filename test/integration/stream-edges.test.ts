import { describe, expect, it } from 'vitest';
import { mechlensRecord, type ExampleSpec } from '../fixtures/formats';
import { index, runFile, scratchPerTest, stored, STREAMED, WHOLE } from '../fixtures/stream-unit';

const scratch = scratchPerTest();

const examples = (n: number, from = 0): ExampleSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `ex-${from + i}`,
    input: `A question long enough to be left in its file, number ${from + i}.`,
    output: `An answer long enough to be left in its file, number ${from + i}.`,
    fields: { score: i % 5 },
  }));

/** The run's JSON with `examples` replaced by `list` (raw JSON) and `after` appended. */
function runText(list: string, after = ''): string {
  const text = JSON.stringify(mechlensRecord({ examples: [] }));
  return text.replace('"examples":[]', `"examples":${list}`).replace(/}$/, `${after}}`);
}

describe('large MechLens files read in batches, at their edges', () => {
  it('report a file broken after a refused batch as broken, whatever comes first in it', async () => {
    const s = scratch();
    const list = examples(40);
    list[3]!.id = 'ex-1';
    const text = JSON.stringify(mechlensRecord({ examples: list }));
    const file = runFile(s.dir, text.slice(0, Math.floor(text.length * 0.9)));
    const result = await index(s.db('p'), file, STREAMED);
    expect(result).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/unexpected end of JSON/),
    });
    runFile(s.dir, text);
    expect(await index(s.db('q'), file, STREAMED)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/duplicate example id "ex-1" \(examples 2 and 4\)/),
    });
  });

  it('store the last examples list when the key comes twice, as JSON.parse keeps the last', async () => {
    const s = scratch();
    // The first list holds a duplicate that must not count.
    const first = examples(30);
    first[20]!.id = 'ex-2';
    const second = JSON.stringify(examples(25, 100));
    const file = runFile(s.dir, runText(JSON.stringify(first), `,"examples":${second}`));
    const whole = s.db('whole');
    const streamed = s.db('streamed');
    expect(await index(whole, file, WHOLE)).toMatchObject({ status: 'imported', examples: 25 });
    expect(await index(streamed, file, STREAMED)).toMatchObject({ status: 'imported' });
    expect(stored(streamed)).toEqual(stored(whole));
  });

  it('keep an example larger than the chunks the layout scan reads, and the next ones', async () => {
    const s = scratch();
    const list = examples(6);
    list[2]!.output = 'walrus '.repeat(1_500_000);
    list[4]!.input = 'é and ünïcode '.repeat(10);
    const file = runFile(s.dir, JSON.stringify(mechlensRecord({ examples: list })));
    const whole = s.db('whole');
    const streamed = s.db('streamed');
    expect(await index(whole, file, WHOLE)).toMatchObject({ status: 'imported', examples: 6 });
    expect(await index(streamed, file, STREAMED)).toMatchObject({ status: 'imported' });
    expect(stored(streamed)).toEqual(stored(whole));
  });

  it('read batches of ASCII and of other text alike, and refuse bytes that are not UTF-8', async () => {
    const s = scratch();
    const list = examples(60);
    list[45]!.output = 'naïve café, 東京, emoji 🦭';
    const text = JSON.stringify(mechlensRecord({ examples: list }));
    const file = runFile(s.dir, text);
    const whole = s.db('whole');
    const streamed = s.db('streamed');
    await index(whole, file, WHOLE);
    expect(await index(streamed, file, STREAMED)).toMatchObject({ status: 'imported' });
    expect(stored(streamed)).toEqual(stored(whole));
    const bytes = Buffer.from(text);
    bytes[bytes.indexOf('number 50')] = 0xc3;
    runFile(s.dir, bytes);
    expect(await index(s.db('bad'), file, STREAMED)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/not valid UTF-8 text$/),
    });
  });
});
