import { describe, expect, it } from 'vitest';
import { SeenIds } from '../../../electron/core/ingest/seen-ids';
import { readExampleBatch } from '../../../electron/core/ingest/importers/mechlens';

/** What a Map of every id to its first example number answers, the reference. */
function reference(ids: string[]): (number | undefined)[] {
  const map = new Map<string, number>();
  return ids.map((id, i) => {
    const earlier = map.get(id);
    if (earlier === undefined) map.set(id, i + 1);
    return earlier;
  });
}

describe('the ids of a run read so far', () => {
  it('answers as a map of every id would, ids in order or not', () => {
    const cases = [
      ['a', 'b', 'c', 'd'],
      ['a', 'b', 'b', 'c'],
      ['a', 'b', 'c', 'a', 'd', 'c', 'e'],
      ['b', 'a', 'b', 'a'],
      ['ex-9', 'ex-10', 'ex-11', 'ex-9'],
      ['x', 'x'],
      ['caf\u00e9', 'cafe\u0301', 'caf\u00e9'],
    ];
    for (const ids of cases) {
      const seen = new SeenIds();
      expect(ids.map((id, i) => seen.add(id, i + 1))).toEqual(reference(ids));
    }
  });

  it('knows every id noted, before and after one came out of order', () => {
    const seen = new SeenIds();
    for (const [i, id] of ['a', 'c', 'e', 'g'].entries()) seen.add(id, i + 1);
    expect(['a', 'b', 'c', 'd', 'e', 'g', 'h'].map((id) => seen.has(id))).toEqual([
      true,
      false,
      true,
      false,
      true,
      true,
      false,
    ]);
    seen.add('b', 5);
    expect(['a', 'b', 'c', 'd', 'g'].map((id) => seen.has(id))).toEqual([
      true,
      true,
      true,
      false,
      true,
    ]);
  });

  it('names both examples of a duplicate in ids written in order, across batches', () => {
    const example = (id: string) => ({ id, input: 'q', output: 'a' });
    const seen = new SeenIds();
    readExampleBatch([example('ex-1'), example('ex-2'), example('ex-3')], 0, seen);
    expect(() => readExampleBatch([example('ex-4'), example('ex-2')], 3, seen)).toThrow(
      'duplicate example id "ex-2" (examples 2 and 5)',
    );
    const again = new SeenIds();
    readExampleBatch([example('ex-1'), example('ex-2')], 0, again);
    expect(() => readExampleBatch([example('ex-2')], 2, again)).toThrow(
      'duplicate example id "ex-2" (examples 2 and 3)',
    );
  });
});
