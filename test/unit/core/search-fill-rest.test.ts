import { describe, expect, it } from 'vitest';
import { restAfter } from '../../../electron/core/search/fill';

/**
 * When a writer waiting in SQLite's default busy handler tries for the lock, in ms after it
 * began waiting: at once, then after sleeping 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 ms, then
 * every 100 ms (sqliteDefaultBusyCallback).
 */
function triesUpTo(until: number): number[] {
  const sleeps = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50];
  const tries = [0];
  for (let i = 0; tries.at(-1)! <= until; i++) tries.push(tries.at(-1)! + (sleeps[i] ?? 100));
  return tries;
}

describe('the rest between fill transactions', () => {
  it('lasts until a writer that began waiting during the transaction has tried again', () => {
    const tries = triesUpTo(1000);
    const late: { held: number; waited: number }[] = [];
    for (let held = 0; held <= 600; held += 1) {
      // The writer began waiting `waited` ms before the commit; it must try within the rest.
      for (let waited = 0; waited <= held; waited += 0.5) {
        const next = tries.find((t) => t >= waited)!;
        if (next - waited > restAfter(held)) late.push({ held, waited });
      }
    }
    expect(late).toEqual([]);
  });

  it('is never longer than the busy handler sleeps at once, plus a little', () => {
    for (const held of [0, 5, 20, 50, 100, 300, 5000]) expect(restAfter(held)).toBeLessThan(110);
    expect(restAfter(20)).toBeLessThan(restAfter(300));
  });
});
