import type { OutboxState, SyncStatus } from '../../../shared/findings';

/** What each outbox state means, for the state cell's tooltip. */
export const stateHelp: Record<OutboxState, string> = {
  pending: 'Waiting to be sent',
  synced: 'Accepted by the server',
  rejected: 'The server refused this item; see why',
  retrying: 'Failed for a reason that may pass (network, 429, 5xx); will be retried',
  stopped: 'Sync stopped: the server refused the key or the address',
};

/** What a sync covers, in words: `null` is every experiment, else the ones ticked. */
export function scopeLabel(chosen: readonly string[] | null): string {
  if (chosen === null) return 'the whole library';
  return chosen.length === 1 ? chosen[0]! : `${chosen.length} experiments`;
}

/** Where the API key comes from, so the user knows whether typing one changes anything. */
export function keySourceNote(keySource: SyncStatus['keySource']): string {
  if (keySource === 'env') return '(from MECHLENS_API_KEY)';
  return keySource === 'store' ? '(saved; type a new one to replace it)' : '(none yet)';
}

/** The outbox's count in every state, zeros included, e.g. "2 pending · 0 synced · …". */
export function outboxSummary(counts: SyncStatus['counts']): string {
  return Object.entries(counts)
    .map(([state, n]) => `${n} ${state}`)
    .join(' · ');
}

/** Items a user may push again now: waiting on a retry, or refused. Sent or queued ones not. */
export function canRetry(state: OutboxState): boolean {
  return state === 'retrying' || state === 'rejected' || state === 'stopped';
}

/** An ISO time as "YYYY-MM-DD HH:MM:SS". */
export function secondsLabel(iso: string): string {
  return iso.replace('T', ' ').slice(0, 19);
}
