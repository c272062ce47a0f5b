import { describe, expect, it } from 'vitest';
import { decodeRunColumns } from '../../../electron/core/columns/decode';
import { RunColumnsBuilder } from '../../../electron/core/columns/encode';
import { rekeyRunColumns } from '../../../electron/core/columns/rekey';
import { exampleKey } from '../../../electron/core/texts/keys';

describe('a column store built with ordinals', () => {
  it('names each example by its key once the run has a rowid, whatever the id order', () => {
    const builder = new RunColumnsBuilder();
    const ids = ['c', 'a', 'd', 'b'];
    ids.forEach((id, ordinal) =>
      builder.add({
        id,
        rowid: ordinal,
        inputHash: '00'.repeat(20),
        outputHash: '11'.repeat(20),
        error: null,
        fields: { n: ordinal },
      }),
    );
    const encoded = builder.encode();
    // As built (aligned) and as a copy one byte into its memory (rows read one by one).
    const unaligned = Buffer.alloc(encoded.byteLength + 1).subarray(1);
    encoded.copy(unaligned);
    for (const bytes of [encoded, unaligned]) {
      rekeyRunColumns(bytes, 77);
      const decoded = decodeRunColumns(bytes)!;
      expect(decoded.map((e) => [e.id, e.rowid])).toEqual([
        ['a', exampleKey(77, 1)],
        ['b', exampleKey(77, 3)],
        ['c', exampleKey(77, 0)],
        ['d', exampleKey(77, 2)],
      ]);
    }
  });
});
