import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_ROWID } from '../../../electron/core/compare/codes';
import type { PairRows } from '../../../electron/core/compare/compute';
import { markIds } from '../../../electron/core/compare/filters';
import { encodePair } from '../../../electron/core/compare/pair-arrays';
import { decodePair, sourceOf } from '../../../electron/core/compare/pair-decode';
import { pairIdsOf } from '../../../electron/core/compare/pair-ids';

/** A pair of these ids (sorted and made unique, as pairing gives them), no criteria. */
function pairOf(list: string[]): PairRows {
  const ids = [...new Set(list)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return {
    pair: 0,
    reference: { runRowid: 1, firstRowid: 10, lastRowid: 10 + ids.length },
    candidate: { runRowid: 2, firstRowid: 100, lastRowid: 100 + ids.length },
    ids: pairIdsOf(ids),
    refRowids: Float64Array.from(ids, (_, k) => (k % 5 === 1 ? NO_ROWID : 2 ** 40 + k)),
    candRowids: Float64Array.from(ids, (_, k) => 100 + 3 * k),
    flags: new Uint8Array(ids.length),
    criteria: [],
    classes: [],
    deltas: [],
  };
}

/** ASCII capitals lowered, nothing else: how a search meets an id. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

const idArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9-]{0,12}$/),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

describe('passes over every row a chunk at a time', () => {
  it("see every key and offset once, and find a search in the ids across the chunks' seams", () => {
    fc.assert(
      fc.property(
        fc.array(idArb, { maxLength: 60 }),
        fc.constantFrom(8, 16, 24, 64, 1 << 17),
        fc.oneof(
          fc.stringMatching(/^[A-Za-z0-9-]{1,4}$/),
          fc.string({ minLength: 1, maxLength: 3 }),
        ),
        (list, chunkBytes, search) => {
          const rows = pairOf(list);
          const stored = encodePair(rows);
          const pair = decodePair(stored, sourceOf(stored), chunkBytes);
          const whole = decodePair(stored, sourceOf(stored));
          for (const side of ['ref', 'cand'] as const) {
            const seen: number[] = [];
            pair.eachKey(side, (keys, from) => {
              expect(from).toBe(seen.length);
              seen.push(...keys);
            });
            expect(seen).toEqual([...(side === 'ref' ? whole.refRowids : whole.candRowids)]);
          }
          const n = rows.ids.ends.length;
          const marks = new Uint8Array(n);
          markIds(pair, search, marks);
          const needle = asciiLower(search);
          const want = Array.from({ length: n }, (_, k) =>
            asciiLower(
              Buffer.from(whole.ids.subarray(whole.offsets[k], whole.offsets[k + 1])).toString(),
            ).includes(needle)
              ? 1
              : 0,
          );
          expect([...marks]).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  });
});
