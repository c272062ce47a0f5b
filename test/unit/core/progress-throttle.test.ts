import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobProgress } from '../../../shared/jobs';
import { ProgressThrottle } from '../../../electron/core/jobs/progress';

const step = (done: number): JobProgress => ({ phase: 'p', done, total: 100 });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ProgressThrottle', () => {
  it('emits at most once per interval and always delivers the latest value last', () => {
    const seen: number[] = [];
    const throttle = new ProgressThrottle(
      (p) => seen.push(p.done),
      100,
      () => Date.now(),
    );
    for (let i = 1; i <= 50; i++) {
      throttle.push(step(i));
      vi.advanceTimersByTime(7);
    }
    vi.advanceTimersByTime(200);
    // 50 pushes over 350 ms: the first at once, then one per 100 ms, the last value at the end.
    expect(seen[0]).toBe(1);
    expect(seen.at(-1)).toBe(50);
    expect(seen.length).toBeLessThanOrEqual(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('flush() sends what is pending now; dispose() drops it', () => {
    const seen: number[] = [];
    const throttle = new ProgressThrottle(
      (p) => seen.push(p.done),
      100,
      () => Date.now(),
    );
    throttle.push(step(1));
    throttle.push(step(2));
    throttle.flush();
    expect(seen).toEqual([1, 2]);
    throttle.push(step(3));
    throttle.dispose();
    vi.advanceTimersByTime(500);
    expect(seen).toEqual([1, 2]);
  });
});
