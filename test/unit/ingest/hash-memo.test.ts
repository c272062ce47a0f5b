import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashMemo, sha1 } from '../../../electron/core/ingest/prepare';

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

  it('hashes a text again when the one at its ordinal was another', () => {
    const memo = new HashMemo();
    expect(memo.hash(0, 'a prompt')).toBe(sha1('a prompt'));
    expect(memo.hash(0, 'a prompt')).toBe(sha1('a prompt'));
    expect(memo.hash(0, 'another prompt')).toBe(sha1('another prompt'));
    expect(memo.hash(0, 'a prompt')).toBe(sha1('a prompt'));
  });
});
