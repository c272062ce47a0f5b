import { useCallback } from 'react';
import type { RequestInput, RequestName, RequestOutput } from '../shared/contract';
import { request } from './api';
import { useApp } from './store';

/**
 * Requests a view fires without awaiting them (load on mount, a button's action): the answer
 * goes to `then`, and a failure becomes a toast instead of an unhandled rejection nobody sees.
 * Lint forbids `void request(…)` in the renderer for that reason.
 */
export function useRequest() {
  const toast = useApp((s) => s.toast);
  return useCallback(
    <N extends RequestName>(
      name: N,
      input: RequestInput<N>,
      then: (value: RequestOutput<N>) => void = () => undefined,
    ): void => {
      request(name, input)
        .then(then)
        .catch((error: unknown) =>
          toast('error', error instanceof Error ? error.message : String(error)),
        );
    },
    [toast],
  );
}
