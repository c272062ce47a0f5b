import { describe, expect, it } from 'vitest';
import { byteShare, count } from '../../../renderer/format';

describe('count', () => {
  it('reads as en-US grouping, the same as toLocaleString("en-US")', () => {
    for (const n of [0, 7, 999, 1000, 29_937, 1_000_000, -4523, 12.5])
      expect(count(n)).toBe(n.toLocaleString('en-US'));
    expect(count(1_234_567)).toBe('1,234,567');
  });

  it('groups whole numbers by hand as Intl does, up to the largest safe integer and past it', () => {
    for (const n of [10, 100, 100_000, -1000, -999_999, 12_345_678_901, Number.MAX_SAFE_INTEGER])
      expect(count(n)).toBe(n.toLocaleString('en-US'));
    for (const n of [1e21, 1234.5678, -0.5, Number.NaN])
      expect(count(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('byteShare', () => {
  it('shows how far a pass is by bytes when the total is known, and nothing otherwise', () => {
    const at = (bytes: number | null, totalBytes: number | null) =>
      byteShare({ phase: 'indexing', done: 0, total: 2, bytes, totalBytes });
    expect(at(440e6, 1_799e6)).toBe(' · 24 % of 1,799 MB');
    expect(at(1_799e6, 1_799e6)).toBe(' · 100 % of 1,799 MB');
    expect(at(10, 100)).toBe(' · 10 % of 1 MB');
    expect(at(null, 100)).toBe('');
    expect(at(5, null)).toBe('');
    expect(at(5, 0)).toBe('');
  });
});
