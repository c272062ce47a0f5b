import { setTimeout as sleep } from 'node:timers/promises';
import type { OutboxItem } from '../../../shared/findings';
import type { Db } from '../db/open';
import { findingPayload } from '../findings/store';
import { send, SendCancelled, type SendOutcome } from './client';
import {
  headOfLine,
  markAttempt,
  markRejected,
  markRetrying,
  markSynced,
  stopAll,
  toItem,
  type OutboxRow,
} from './outbox';

/**
 * One pass over the outbox, strictly in id order: each row is sent under its idempotency key;
 * a row that must wait (backoff, Retry-After) holds back the rows behind it, and the pass
 * waits for it as long as its budget allows.
 */

export interface SyncOptions {
  /** Per request, like the SDK's CloudClient default. */
  timeoutMs: number;
  /** Exponential backoff with full jitter: random(0, min(max, base · 2^(attempts − 1))). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long one pass may wait for due retries before it ends and leaves them queued. */
  maxWaitMs: number;
  random: () => number;
}

export const defaultSyncOptions: SyncOptions = {
  timeoutMs: 30_000,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  maxWaitMs: 60_000,
  random: Math.random,
};

export interface PassResult {
  synced: number;
  rejected: number;
  /** The server refused the key or the address: every queued row is stopped. */
  stopped: string | null;
  /** Rows still queued when the pass ended (waiting beyond the budget, or cancelled). */
  waiting: number;
}

export interface PassContext {
  url: string;
  key: string;
  signal: AbortSignal;
  onItem?: (item: OutboxItem, outcome: SendOutcome) => void;
}

/** The delay before the next attempt; Retry-After, when given, is a floor (the server asked). */
export function retryDelay(attempts: number, retryAfterMs: number | null, o: SyncOptions): number {
  const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.max(retryAfterMs ?? 0, Math.floor(o.random() * ceiling));
}

function endpointFor(base: string, row: OutboxRow): string {
  return `${base}/api/v1/${row.kind === 'run' ? 'runs' : 'findings'}`;
}

function bodyFor(db: Db, row: OutboxRow): string {
  if (row.kind === 'run') return row.payload;
  const ref = JSON.parse(row.payload) as { finding_id: string; revision: number };
  return JSON.stringify(findingPayload(db, ref.finding_id, ref.revision));
}

function remaining(db: Db): number {
  return (
    db.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE state IN ('pending', 'retrying')`).get() as {
      n: number;
    }
  ).n;
}

export async function drainOutbox(
  db: Db,
  context: PassContext,
  options: SyncOptions,
  changed: () => void,
): Promise<PassResult> {
  const result: PassResult = { synced: 0, rejected: 0, stopped: null, waiting: 0 };
  let waited = 0;
  while (!context.signal.aborted) {
    const row = headOfLine(db);
    if (!row) break;
    const wait = row.next_attempt_at ? Date.parse(row.next_attempt_at) - Date.now() : 0;
    if (row.next_attempt_at && waited + Math.max(0, wait) > options.maxWaitMs) break;
    if (wait > 0) {
      waited += wait;
      try {
        await sleep(wait, undefined, { signal: context.signal });
      } catch {
        break;
      }
      continue;
    }
    let body: string;
    try {
      body = bodyFor(db, row);
    } catch (error) {
      // Nothing to send (the finding is gone): a local rejection, and the queue moves on.
      markRejected(db, row.id, `Not sent: ${(error as Error).message}`);
      result.rejected++;
      changed();
      continue;
    }
    const attempts = markAttempt(db, row.id);
    const sentAt = Date.now();
    let outcome: SendOutcome;
    try {
      outcome = await send({
        url: endpointFor(context.url, row),
        key: context.key,
        idempotencyKey: row.idempotency_key,
        body,
        timeoutMs: options.timeoutMs,
        signal: context.signal,
      });
    } catch (error) {
      // Cancelled mid-request: the row stays queued and goes again under the same key.
      if (error instanceof SendCancelled) break;
      throw error;
    }
    if (outcome.kind === 'synced') {
      markSynced(db, row, outcome.url);
      result.synced++;
    } else if (outcome.kind === 'rejected') {
      markRejected(db, row.id, `${outcome.status}: ${outcome.detail}`);
      result.rejected++;
    } else if (outcome.kind === 'stop') {
      stopAll(db, outcome.message);
      result.stopped = outcome.message;
    } else {
      // Time lost to a request that has to be retried counts against the budget like waiting
      // does: otherwise a server that never answers keeps a pass going forever whenever the
      // backoff is shorter than the request timeout.
      waited += Date.now() - sentAt;
      const delay = retryDelay(attempts, outcome.retryAfterMs, options);
      markRetrying(db, row.id, outcome.message, new Date(Date.now() + delay));
    }
    const after = db.prepare(`SELECT * FROM outbox WHERE id = ?`).get(row.id) as OutboxRow;
    context.onItem?.(toItem(after), outcome);
    changed();
    if (result.stopped) break;
  }
  result.waiting = remaining(db);
  return result;
}
