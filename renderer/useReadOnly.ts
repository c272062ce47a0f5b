import { useSyncExternalStore } from 'react';
import { request } from './api';

/**
 * Whether this session may only read: a lab server says so in `app:info` for a reviewer, or for
 * everyone when it runs with --read-only (docs/lab-server.md). The server refuses what would
 * change the library either way; the page disables those controls so nobody is surprised.
 */

export const READ_ONLY_TITLE = 'read-only: ask an editor';

let readOnly = false;
let answer: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

/** Asked once per page; a failed answer is asked again next time. */
export function readOnlySession(): Promise<boolean> {
  answer ??= request('app:info').then(
    (info) => {
      readOnly = info.readOnly === true;
      for (const listener of listeners) listener();
      return readOnly;
    },
    () => {
      answer = null;
      return false;
    },
  );
  return answer;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  void readOnlySession();
  return () => listeners.delete(listener);
}

/** `locked` goes on a control that changes the library: disabled, with the reason as its tooltip. */
export function useReadOnly(): {
  readOnly: boolean;
  locked: { disabled?: true; title?: string };
} {
  const value = useSyncExternalStore(subscribe, () => readOnly);
  return { readOnly: value, locked: value ? { disabled: true, title: READ_ONLY_TITLE } : {} };
}
