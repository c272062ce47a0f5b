import { describe, expect, it } from 'vitest';
import { count } from '../../../renderer/format';

describe('count', () => {
  it('reads as en-US grouping, the same as toLocaleString("en-US")', () => {
    for (const n of [0, 7, 999, 1000, 29_937, 1_000_000, -4523, 12.5])
      expect(count(n)).toBe(n.toLocaleString('en-US'));
    expect(count(1_234_567)).toBe('1,234,567');
  });
});
