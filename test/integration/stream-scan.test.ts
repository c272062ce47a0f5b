import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchReader } from '../../electron/core/ingest/stream-batches';
import { mechlensRecord, type ExampleSpec } from '../fixtures/formats';
import {
  index,
  runFile,
  scratch as newScratch,
  stored,
  STREAMED,
  WHOLE,
  type Scratch,
} from '../fixtures/stream-unit';

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

function scratch(): Scratch {
  const s = newScratch();
  cleanup = s.cleanup;
  return s;
}

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

describe('the layout scan of a large run file, parsing its batches on the way', () => {
  it('reports a file broken after a refused batch as broken, as before any batch was parsed', async () => {
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

  it('stores the last examples list when the key comes twice, as JSON.parse keeps the last', async () => {
    const s = scratch();
    // The first list, parsed as the scan passes it, holds a duplicate that must not count.
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

  it('keeps an example larger than the chunks the scan reads, and the next ones', async () => {
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

  it('reads from the file the batches past what it may keep, and stores the same', async () => {
    const s = scratch();
    const file = runFile(s.dir, JSON.stringify(mechlensRecord({ examples: examples(300) })));
    const whole = s.db('whole');
    await index(whole, file, WHOLE);
    const parsed = vi.spyOn(BatchReader.prototype, 'parse');
    const read = vi.spyOn(BatchReader.prototype, 'next');
    const streamed = s.db('streamed');
    const result = await index(streamed, file, { ...STREAMED, batchBytes: 4096, keptBytes: 1 });
    const [batches, fromFile] = [parsed.mock.calls.length, read.mock.calls.length];
    parsed.mockRestore();
    read.mockRestore();
    expect(result).toMatchObject({ status: 'imported', examples: 300 });
    // The scan parsed batches until their first block was done; the rest were read again.
    expect(batches).toBeGreaterThan(5);
    expect(fromFile).toBeGreaterThan(0);
    expect(fromFile).toBeLessThan(batches);
    expect(stored(streamed)).toEqual(stored(whole));
  });

  it('reads ASCII batches and others alike, and still refuses bytes that are not UTF-8', async () => {
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
