import { describe, expect, it } from 'vitest';
import { RowPages } from '../../../renderer/features/examples/rowPages';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('RowPages', () => {
  it('reads every row across pages of any size, in order', () => {
    let pages = RowPages.empty<number>();
    for (const size of [200, 200, 7, 1, 200, 13])
      pages = pages.append(range(pages.length, pages.length + size));
    expect(pages.length).toBe(621);
    expect(range(0, 621).map((i) => pages.at(i))).toEqual(range(0, 621));
  });

  it('answers undefined outside the loaded rows', () => {
    const pages = RowPages.empty<string>().append(['a', 'b']);
    expect([pages.at(-1), pages.at(2), pages.at(0.5), RowPages.empty().at(0)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('leaves the store it appended to unchanged and keeps row identity', () => {
    const row = { id: 'x' };
    const first = RowPages.empty<{ id: string }>().append([row]);
    const second = first.append([{ id: 'y' }]);
    expect(first.length).toBe(1);
    expect(second.length).toBe(2);
    expect(second.at(0)).toBe(row);
    expect(second.append([])).toBe(second);
  });

  it('slices a window across page boundaries, clamped to the loaded rows', () => {
    let pages = RowPages.empty<number>();
    for (const size of [5, 3, 5]) pages = pages.append(range(pages.length, pages.length + size));
    expect(pages.slice(3, 10)).toEqual(range(3, 10));
    expect(pages.slice(-2, 2)).toEqual([0, 1]);
    expect(pages.slice(11, 40)).toEqual([11, 12]);
    expect(pages.slice(20, 30)).toEqual([]);
  });
});
