import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImportedExample } from '../../../shared/model';
import {
  HashMemo,
  prepareExampleList,
  RunBuilders,
  sha1,
} from '../../../electron/core/ingest/prepare';

function examples(outputs: string): ImportedExample[] {
  return Array.from({ length: 300 }, (_, i) => ({
    id: `ex-${i}`,
    input: `the same prompt number ${i}, in every run of the experiment`,
    output: i % 2 === 0 ? `an answer every run gives, ${i}` : `${outputs} ${i}`,
    fields: { score: i % 3 },
    target: null,
    error: null,
  }));
}

const prepare = (list: ImportedExample[]) => prepareExampleList(list, new RunBuilders(), true);

describe('the hash memo', () => {
  it('gives each text its own SHA-1, whatever the runs before held at its ordinal', () => {
    const text = fc.oneof(
      fc.constantFrom('same prompt', 'other prompt', '', 'é😀', 'x'.repeat(3000)),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    const run = fc.array(text, { maxLength: 12 });
    fc.assert(
      fc.property(fc.array(run, { maxLength: 6 }), fc.nat(10_000), (runs, start) => {
        const memo = new HashMemo();
        for (const texts of runs)
          texts.forEach((t, i) => expect(memo.hash(start + i, t)).toBe(sha1(t)));
      }),
      { numRuns: 300 },
    );
  });

  it('prepares the same bytes for a run whether the run before shared its texts or not', () => {
    prepare(examples('unrelated run'));
    const fresh = prepare(examples('candidate'));
    prepare(examples('reference'));
    expect(prepare(examples('candidate'))).toEqual(fresh);
  });

  it('hashes a text again when the one at its ordinal was another', () => {
    const memo = new HashMemo();
    expect(memo.hash(0, 'a prompt')).toBe(sha1('a prompt'));
    expect(memo.hash(0, 'a prompt')).toBe(sha1('a prompt'));
    expect(memo.hash(0, 'another prompt')).toBe(sha1('another prompt'));
    expect(memo.hash(0, 'a prompt')).toBe(sha1('a prompt'));
  });
});
