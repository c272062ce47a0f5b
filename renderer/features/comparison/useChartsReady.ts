import { useDeferredValue } from 'react';

/**
 * False for the view's first render, true in a background render right after: the charts then
 * lay out in a task of their own instead of lengthening the one that opens the view.
 */
export function useChartsReady(): boolean {
  return useDeferredValue(true, false);
}
