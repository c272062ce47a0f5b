import { describe, expect, it } from 'vitest';
import {
  classCode,
  FLAG,
  NO_ROWID,
  SIDE_SHIFT,
  sideCode,
} from '../../../electron/core/compare/codes';
import type { PairRows } from '../../../electron/core/compare/compute';
import {
  encodePair,
  findId,
  idAt,
  type StoredPairArrays,
} from '../../../electron/core/compare/pair-arrays';
import { decodePair, sourceOf } from '../../../electron/core/compare/pair-decode';
import { Lru } from '../../../electron/core/compare/pair-cache';
import {
  ascendingIds,
  idList,
  knownAscending,
  pairIdsOf,
  strictlyAscending,
} from '../../../electron/core/compare/pair-ids';

function rows(ids: string[]): PairRows {
  const n = ids.length;
  return {
    pair: 0,
    reference: { runRowid: 1, firstRowid: 10, lastRowid: 10 + n },
    candidate: { runRowid: 2, firstRowid: 100, lastRowid: 100 + n },
    ids: pairIdsOf(ids),
    refRowids: Float64Array.from(ids, (_, k) => (k === 1 ? NO_ROWID : 2 ** 40 + k)),
    candRowids: Float64Array.from(ids, (_, k) => 100 + k),
    flags: Uint8Array.from(
      ids,
      (_, k) =>
        (sideCode(k === 1 ? 'candidate' : 'both') << SIDE_SHIFT) | (k % 2 ? FLAG.outputChanged : 0),
    ),
    criteria: ['score', 'refused'],
    classes: [
      Uint8Array.from(ids, (_, k) => classCode(k % 2 ? 'regressed' : 'unchanged')),
      Uint8Array.from(ids, () => classCode('not_comparable')),
    ],
    deltas: [
      Float64Array.from(ids, (_, k) => (k === 0 ? -0 : k - 1.5)),
      new Float64Array(n).fill(NaN),
    ],
  };
}

/** Each BLOB at an odd offset inside a bigger buffer, as SQLite may hand one back. */
function misaligned(stored: StoredPairArrays): StoredPairArrays {
  const shift = (blob: Buffer) => {
    const holder = Buffer.alloc(blob.length + 1);
    blob.copy(holder, 1);
    return holder.subarray(1);
  };
  return {
    ...stored,
    id_offsets: shift(stored.id_offsets),
    ref_rowids: shift(stored.ref_rowids),
    cand_rowids: shift(stored.cand_rowids),
    deltas: shift(stored.deltas),
  };
}

const decode = (stored: StoredPairArrays) => decodePair(stored, sourceOf(stored));

describe('pair arrays', () => {
  it('round-trips every column, in UTF-8 byte order, from misaligned BLOBs too', () => {
    const ids = ['a', 'b\u{1F600}', 'b\uFF21', 'c'];
    const decoded = decode(misaligned(encodePair(rows(ids))));
    expect(Array.from({ length: decoded.rows }, (_, k) => idAt(decoded, k))).toEqual([
      'a',
      'b\uFF21',
      'b\u{1F600}',
      'c',
    ]);
    // Row 'b\u{1F600}' (k = 1 before the reorder) has no reference and moved to k = 2.
    expect(Array.from(decoded.refRowids)).toEqual([2 ** 40, 2 ** 40 + 2, NO_ROWID, 2 ** 40 + 3]);
    expect(Array.from(decoded.candRowids)).toEqual([100, 102, 101, 103]);
    expect(Array.from(decoded.deltas[0]!)).toEqual([0, 0.5, -0.5, 1.5]);
    expect(Object.is(decoded.deltas[0]![0], 0)).toBe(true);
    expect(decoded.deltas[1]!.every(Number.isNaN)).toBe(true);
    expect(Array.from(decoded.classes[0]!)).toEqual(
      [0, 0, 2, 2].map((c) => c && classCode('regressed')),
    );
    expect(decoded.criteria).toEqual(['score', 'refused']);
    expect(findId(decoded, 'b\u{1F600}')).toBe(2);
    expect(findId(decoded, 'b')).toBe(-1);
    expect(decoded.counts['["side","candidate"]']).toBe(1);
    expect(decoded.counts['["class","refused","not_comparable"]']).toBe(4);
  });

  it('keeps differences a float cannot hold as doubles, exactly', () => {
    const wide = rows(['a', 'b']);
    wide.deltas[0] = Float64Array.of(0.1, 2 ** 30 + 0.5);
    const decoded = decode(encodePair(wide));
    expect(Array.from(decoded.deltas[0]!)).toEqual([0.1, 2 ** 30 + 0.5]);
    expect(decoded.deltas[1]!.every(Number.isNaN)).toBe(true);
  });

  it("reads one criterion's differences alone, as the whole array holds them", () => {
    const wide = rows(['a', 'b', 'c']);
    wide.deltas[1] = Float64Array.of(0.1, NaN, -2);
    for (const form of [rows(['a', 'b', 'c']), wide]) {
      const stored = misaligned(encodePair(form));
      const read: string[] = [];
      const source = sourceOf(stored);
      const decoded = decodePair(stored, {
        ...source,
        read: (section) => (read.push(section), source.read(section)),
      });
      const alone = [decoded.deltaOf(0), decoded.deltaOf(1)];
      expect(read).toEqual([]);
      expect(alone.map((d) => d.constructor)).toEqual(decoded.deltas.map((d) => d.constructor));
      expect(alone.map((d) => Array.from(d))).toEqual(decoded.deltas.map((d) => Array.from(d)));
      expect(Array.from(decoded.deltaOf(1))).toEqual(Array.from(decoded.deltas[1]!));
    }
    expect(decode(encodePair(rows([]))).deltaOf(0)).toHaveLength(0);
  });

  it('refuses arrays whose length does not match the row count', () => {
    const stored = encodePair(rows(['a', 'b', 'c']));
    expect(() => decode({ ...stored, flags: stored.flags.subarray(1) })).toThrow('damaged');
    // The ids' length is checked against the offsets when they are first read.
    const shortIds = decode({ ...stored, example_ids: Buffer.from('ab') });
    expect(() => idAt(shortIds, 0)).toThrow('damaged');
  });

  it('reads the narrow rowids of files saved by earlier versions', () => {
    const stored = encodePair(rows(['a', 'b', 'c']));
    const narrow = (...rowids: number[]) => Buffer.from(Uint32Array.from(rowids).buffer);
    const decoded = decode({
      ...stored,
      ref_rowids: narrow(10, 0xffffffff, 12),
      cand_rowids: narrow(100, 101, 102),
    });
    expect(Array.from(decoded.refRowids)).toEqual([10, NO_ROWID, 12]);
    expect(Array.from(decoded.candRowids)).toEqual([100, 101, 102]);
  });

  it("reads a few rows' ids and keys alike before and after the whole arrays are read", () => {
    const stored = encodePair(rows(['a', 'b\u{1F600}', 'b\uFF21', 'c']));
    const narrow = (...rowids: number[]) => Buffer.from(Uint32Array.from(rowids).buffer);
    for (const form of [stored, { ...stored, ref_rowids: narrow(10, 0xffffffff, 12, 13) }]) {
      const decoded = decode(form);
      const ks = [3, 0, 2, 1];
      const byRow = decoded.rowsAt(ks);
      const whole = {
        ids: ks.map((k) => idAt(decoded, k)),
        ref: ks.map((k) => decoded.refRowids[k]!),
        cand: ks.map((k) => decoded.candRowids[k]!),
      };
      expect(byRow).toEqual(whole);
      expect(decoded.rowsAt(ks)).toEqual(whole);
      expect(byRow.ids).toEqual(['c', 'a', 'b\u{1F600}', 'b\uFF21']);
    }
    expect(decode(stored).rowsAt([])).toEqual({ ids: [], ref: [], cand: [] });
  });

  it('refuses row offsets that point outside the ids', () => {
    const stored = encodePair(rows(['a', 'b', 'c']));
    const offsets = Buffer.from(stored.id_offsets);
    offsets.writeUInt32LE(99, 4);
    expect(() => decode({ ...stored, id_offsets: offsets }).rowsAt([0])).toThrow('damaged');
  });

  it('an empty pair stores and reads back as no rows', () => {
    const decoded = decode(encodePair(rows([])));
    expect(decoded.rows).toBe(0);
    expect(findId(decoded, 'a')).toBe(-1);
  });
});

describe('pair ids', () => {
  it('tell ids in code-unit order from any other, compared in place', () => {
    const ascending = (ids: string[]) => strictlyAscending(pairIdsOf(ids));
    expect(ascending(['', 'a', 'ab', 'abc', 'b', 'ba'])).toBe(true);
    expect(ascending([])).toBe(true);
    expect(ascending(['ab', 'a'])).toBe(false);
    expect(ascending(['a', 'a'])).toBe(false);
    expect(ascending(['b', 'a'])).toBe(false);
    expect(ascending(['', ''])).toBe(false);
    expect(idList(pairIdsOf(['x', '', '😀y']))).toEqual(['x', '', '😀y']);
  });

  it('known ascending are taken as they are, yet still put in UTF-8 byte order', () => {
    expect(ascendingIds(pairIdsOf(['b', 'a']))).toBe(false);
    // Taken on trust, unchecked: only a pairing of column stores marks its ids so.
    expect(ascendingIds(knownAscending(pairIdsOf(['d', 'c'])))).toBe(true);
    // U+FF21 sorts below U+1F600 in UTF-16 code units, above it in UTF-8.
    const ids = knownAscending(pairIdsOf(['b\u{1F600}', 'b\uFF21']));
    const stored = encodePair({ ...rows(idList(ids)), ids });
    expect(decode(stored).rowsAt([0, 1]).ids).toEqual(['b\uFF21', 'b\u{1F600}']);
  });
});

describe('the decoded pairs kept', () => {
  it('drops the least recently used first', () => {
    const lru = new Lru<number>(2);
    let made = 0;
    const get = (key: string) => lru.get(key, () => ++made);
    expect([get('a'), get('b'), get('a'), get('c')]).toEqual([1, 2, 1, 3]);
    expect(get('a')).toBe(1);
    expect(get('b')).toBe(4);
    expect(lru.size).toBe(2);
    lru.drop((value) => value === 1);
    expect(lru.size).toBe(1);
    expect(get('a')).toBe(5);
  });
});
