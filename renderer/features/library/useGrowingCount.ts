import { startTransition, useEffect, useState } from 'react';

/** Card rows (runs, and a few for each card's head) a commit adds: about a window's worth. */
export const ROWS_PER_STEP = 60;

/**
 * How much of `total` to render: a step at first, one more step in each later task until all
 * is, starting again at one step when `epoch` changes (a new search). The library's 159
 * experiment cards made one commit of ~2,000 elements, 60–100 ms of the renderer's thread at
 * open and at each search; a step is a few milliseconds, and a refresh of the same search (a run
 * indexed) keeps what is shown, so the page never shrinks under a reader scrolled down it.
 */
export function useGrowingCount(total: number, epoch: string, step = ROWS_PER_STEP): number {
  const [shown, setShown] = useState({ epoch, count: step });
  const count = shown.epoch === epoch ? shown.count : step;
  useEffect(() => {
    if (count >= total) return;
    const timer = setTimeout(() => startTransition(() => setShown({ epoch, count: count + step })));
    return () => clearTimeout(timer);
  }, [epoch, count, total, step]);
  return Math.min(count, total);
}
