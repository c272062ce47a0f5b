import { describe, expect, it } from 'vitest';
import {
  canRetry,
  keySourceNote,
  outboxSummary,
  scopeLabel,
  secondsLabel,
} from '../../../renderer/features/sync/syncText';

describe('the sync view in words', () => {
  it('names the scope: the library, the one experiment, or how many', () => {
    expect(scopeLabel(null)).toBe('the whole library');
    expect(scopeLabel(['exp-a'])).toBe('exp-a');
    expect(scopeLabel(['exp-a', 'exp-b'])).toBe('2 experiments');
    expect(scopeLabel([])).toBe('0 experiments');
  });

  it('says where the key comes from', () => {
    expect(keySourceNote('env')).toBe('(from MECHLENS_API_KEY)');
    expect(keySourceNote('store')).toBe('(saved; type a new one to replace it)');
    expect(keySourceNote(null)).toBe('(none yet)');
  });

  it('counts the outbox in every state', () => {
    expect(outboxSummary({ pending: 2, synced: 0, rejected: 1, retrying: 0, stopped: 0 })).toBe(
      '2 pending · 0 synced · 1 rejected · 0 retrying · 0 stopped',
    );
  });

  it('offers a retry only for items that failed or are waiting on one', () => {
    expect(canRetry('retrying')).toBe(true);
    expect(canRetry('rejected')).toBe(true);
    expect(canRetry('stopped')).toBe(true);
    expect(canRetry('pending')).toBe(false);
    expect(canRetry('synced')).toBe(false);
  });

  it('shows times to the second', () => {
    expect(secondsLabel('2026-09-14T09:30:15.250Z')).toBe('2026-09-14 09:30:15');
  });
});
