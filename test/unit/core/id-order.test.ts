import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIdBytes, idOrderOf, numberedIds } from '../../../electron/core/compare/id-order';
import { knownAscending, pairIdsOf } from '../../../electron/core/compare/pair-ids';

const byCodeUnits = (ids: string[]) => [...ids].sort();
const ordered = (ids: string[]) => {
  const { order } = idOrderOf(pairIdsOf(ids));
  return order ? Array.from(order, (k) => ids[k]!) : ids;
};

describe("the explorer's id order", () => {
  it('takes ids as numbered only when each is one shared prefix and digits with no leading zero', () => {
    const numbered = (ids: string[]) => numberedIds(pairIdsOf(ids));
    expect(numbered(['0', '1', '10', '2'])).toBe(true);
    expect(numbered(['10', '11', '100'])).toBe(true);
    expect(numbered(['1', '01'])).toBe(false);
    expect(numbered(['1', '00'])).toBe(false);
    expect(numbered(['1', '2a'])).toBe(false);
    expect(numbered(['1', '-2'])).toBe(false);
    expect(numbered(['1', ''])).toBe(false);
    expect(numbered(['1', '٣'])).toBe(false);
    expect(numbered([])).toBe(false);
    expect(numbered(['HumanEval/0', 'HumanEval/12', 'HumanEval/3'])).toBe(true);
    expect(numbered(['sample_1', 'sample_10'])).toBe(true);
    expect(numbered(['q7'])).toBe(true);
    expect(numbered(['q'])).toBe(false);
    expect(numbered(['ex-001', 'ex-010'])).toBe(false);
    expect(numbered(['a1', 'b2'])).toBe(false);
    expect(numbered(['HumanEval/1', 'HumanEval/'])).toBe(false);
    expect(numbered(['HumanEval/1', 'HumanEval/2/3'])).toBe(false);
  });

  it('lists whole numbers by value, past 2^53 too, from the pairing order or any other', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.bigInt({ min: 0n, max: 10n ** 25n }), { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        (values, pairingOrder) => {
          const ids = values.map(String);
          const given = pairingOrder ? byCodeUnits(ids) : ids;
          const byValue = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
          expect(ordered(given)).toEqual(byValue);
          expect(idOrderOf(pairIdsOf(given)).numbered).toBe(true);
        },
      ),
    );
  });

  it('lists ids of a shared prefix by their numbers, whatever the prefix', () => {
    const prefixes = fc
      .string({ unit: 'grapheme', maxLength: 8 })
      .filter((p) => p === '' || !/[0-9]$/.test(p));
    fc.assert(
      fc.property(
        prefixes,
        fc.uniqueArray(fc.bigInt({ min: 0n, max: 10n ** 25n }), { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        (prefix, values, pairingOrder) => {
          const ids = values.map((v) => `${prefix}${v}`);
          const given = pairingOrder ? byCodeUnits(ids) : ids;
          const byNumber = [...values]
            .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
            .map((v) => `${prefix}${v}`);
          expect(ordered(given)).toEqual(byNumber);
        },
      ),
    );
  });

  it('keeps UTF-8 byte order for any other ids', () => {
    const ids = byCodeUnits(['10', '9', 'a', '\u{1F600}', '\uFFFD']);
    expect(ordered(ids)).toEqual(['10', '9', 'a', '\uFFFD', '\u{1F600}']);
    expect(idOrderOf(knownAscending(pairIdsOf(['a', 'b']))).order).toBeNull();
  });

  it("orders some of a pair's ids as the whole pair's are: bytes if any id is not a number", () => {
    const paired = byCodeUnits(['1', '2', '10']);
    expect(idOrderOf(pairIdsOf(paired), false)).toEqual({ order: null, numbered: false });
    expect(Array.from(idOrderOf(pairIdsOf(paired), true).order!)).toEqual([0, 2, 1]);
  });

  it('compares numbered ids by length first, so a binary search finds any cursor a place', () => {
    const ids = Buffer.from('29100');
    const at = (start: number, end: number, id: string, whole: boolean) =>
      Math.sign(compareIdBytes(ids, start, end, Buffer.from(id), whole));
    expect(at(0, 1, '10', true)).toBe(-1);
    expect(at(0, 1, '10', false)).toBe(1);
    expect(at(0, 1, '9', true)).toBe(-1);
    expect(at(1, 2, '9', true)).toBe(0);
    expect(at(2, 5, '100', true)).toBe(0);
    expect(at(2, 5, 'abc', true)).toBe(-1);
  });
});
