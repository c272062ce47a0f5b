import { useCallback, useState } from 'react';
import { useApp } from './store';

/**
 * A confirming action (a dialog's Pin, Remove, Group): `busy` while it runs, so its button can
 * disable itself against a second click, and a failure becomes a toast like any request's.
 */
export function useAction(): [busy: boolean, run: (action: () => Promise<void>) => void] {
  const toast = useApp((s) => s.toast);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    (action: () => Promise<void>) => {
      setBusy(true);
      action()
        .catch((error: unknown) =>
          toast('error', error instanceof Error ? error.message : String(error)),
        )
        .finally(() => setBusy(false));
    },
    [toast],
  );
  return [busy, run];
}
