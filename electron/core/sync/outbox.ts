import type { OutboxItem, OutboxState, SyncStatus } from '../../../shared/findings';
import type { Db } from '../db/open';

/**
 * The outbox table: what is queued for the server, under which idempotency key, and how each
 * attempt went. Every function is one statement or one transaction on the writer connection.
 */

export interface OutboxRow {
  id: number;
  kind: 'run' | 'finding';
  item_id: string;
  idempotency_key: string;
  payload: string;
  item_sha256: string | null;
  state: OutboxState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  remote_url: string | null;
  created_at: string;
  updated_at: string;
}

const now = () => new Date().toISOString();
const COLUMNS = `id, kind, item_id, idempotency_key, state, attempts, next_attempt_at, last_error,
  remote_url, created_at, updated_at`;

export function toItem(row: Omit<OutboxRow, 'payload' | 'item_sha256'>): OutboxItem {
  return {
    id: row.id,
    kind: row.kind,
    itemId: row.item_id,
    idempotencyKey: row.idempotency_key,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    remoteUrl: row.remote_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function findingKey(findingId: string, revision: number): string {
  return `${findingId}:${revision}`;
}

/** Called inside the transaction that writes the revision: both land, or neither does. */
export function enqueueFinding(db: Db, findingId: string, revision: number, at = now()): void {
  db.prepare(
    `INSERT INTO outbox (kind, item_id, idempotency_key, payload, created_at, updated_at)
     VALUES ('finding', ?, ?, ?, ?, ?)`,
  ).run(
    findingId,
    findingKey(findingId, revision),
    JSON.stringify({ finding_id: findingId, revision }),
    at,
    at,
  );
}

/** A run is queued once, keyed by its id; a second call for the same id does nothing. */
export function enqueueRun(db: Db, runId: string, sha256: string | null, body: string): boolean {
  const at = now();
  const info = db
    .prepare(
      `INSERT INTO outbox (kind, item_id, idempotency_key, payload, item_sha256, created_at, updated_at)
       VALUES ('run', ?, ?, ?, ?, ?, ?) ON CONFLICT(idempotency_key) DO NOTHING`,
    )
    .run(runId, runId, body, sha256, at, at);
  return info.changes > 0;
}

/** Run ids that have an outbox row already (whatever its state). */
export function queuedRunIds(db: Db): Set<string> {
  const rows = db.prepare(`SELECT item_id FROM outbox WHERE kind = 'run'`).all() as {
    item_id: string;
  }[];
  return new Set(rows.map((r) => r.item_id));
}

/** The row a pass must deal with next: the oldest one still to send (order is id ASC). */
export function headOfLine(db: Db): OutboxRow | null {
  return (
    (db
      .prepare(`SELECT * FROM outbox WHERE state IN ('pending', 'retrying') ORDER BY id LIMIT 1`)
      .get() as OutboxRow | undefined) ?? null
  );
}

export function queued(db: Db): OutboxItem[] {
  return (
    db
      .prepare(
        `SELECT ${COLUMNS} FROM outbox WHERE state IN ('pending', 'retrying', 'stopped') ORDER BY id`,
      )
      .all() as OutboxRow[]
  ).map(toItem);
}

/** Counted before the request goes out, so an attempt cut short by a crash still counts. */
export function markAttempt(db: Db, id: number): number {
  const row = db
    .prepare(
      `UPDATE outbox SET attempts = attempts + 1, updated_at = ? WHERE id = ? RETURNING attempts`,
    )
    .get(now(), id) as { attempts: number };
  return row.attempts;
}

/** Synced: keep the server's url, remember what the server has of a run, drop the run's body. */
export function markSynced(db: Db, row: OutboxRow, url: string | null): void {
  const at = now();
  db.transaction(() => {
    db.prepare(
      `UPDATE outbox SET state = 'synced', remote_url = ?, last_error = NULL, next_attempt_at = NULL,
         payload = CASE WHEN kind = 'run' THEN 'null' ELSE payload END, updated_at = ? WHERE id = ?`,
    ).run(url, at, row.id);
    if (row.kind === 'run')
      db.prepare(
        `INSERT INTO sync_state (run_id, synced_sha256, synced_at) VALUES (?, ?, ?)
         ON CONFLICT(run_id) DO UPDATE SET synced_sha256 = excluded.synced_sha256, synced_at = excluded.synced_at`,
      ).run(row.item_id, row.item_sha256, at);
  })();
}

export function markRejected(db: Db, id: number, detail: string): void {
  db.prepare(
    `UPDATE outbox SET state = 'rejected', last_error = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?`,
  ).run(detail, now(), id);
}

export function markRetrying(db: Db, id: number, error: string, nextAttemptAt: Date): void {
  db.prepare(
    `UPDATE outbox SET state = 'retrying', last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?`,
  ).run(error, nextAttemptAt.toISOString(), now(), id);
}

/** 401 and friends: nothing is tried again until someone acts (a new key, or a new sync). */
export function stopAll(db: Db, message: string): void {
  db.prepare(
    `UPDATE outbox SET state = 'stopped', last_error = ?, next_attempt_at = NULL, updated_at = ?
     WHERE state IN ('pending', 'retrying')`,
  ).run(message, now());
}

/** An explicit sync, a new key or "retry now": stopped rows go back in the queue. */
export function resumeStopped(db: Db): void {
  db.prepare(
    `UPDATE outbox SET state = 'pending', next_attempt_at = NULL, updated_at = ? WHERE state = 'stopped'`,
  ).run(now());
}

/** "Retry now": waiting rows (one, or all) become due immediately. */
export function retryNow(db: Db, id?: number): number {
  const at = now();
  const where = id === undefined ? '' : 'AND id = ?';
  const args = id === undefined ? [at] : [at, id];
  return db
    .prepare(
      `UPDATE outbox SET state = CASE WHEN state = 'stopped' THEN 'pending' ELSE state END,
         next_attempt_at = NULL, updated_at = ? WHERE state IN ('retrying', 'stopped') ${where}`,
    )
    .run(...args).changes;
}

export function counts(db: Db): SyncStatus['counts'] {
  const out: SyncStatus['counts'] = { pending: 0, synced: 0, rejected: 0, retrying: 0, stopped: 0 };
  const rows = db.prepare(`SELECT state, COUNT(*) AS n FROM outbox GROUP BY state`).all() as {
    state: OutboxState;
    n: number;
  }[];
  for (const row of rows) out[row.state] = row.n;
  return out;
}

export function recentItems(db: Db, limit: number): OutboxItem[] {
  return (
    db.prepare(`SELECT ${COLUMNS} FROM outbox ORDER BY id DESC LIMIT ?`).all(limit) as OutboxRow[]
  ).map(toItem);
}

/** Runs the server has whose source has changed since: never re-sent under the same key. */
export function changedSinceSync(db: Db): SyncStatus['changedSinceSync'] {
  return (
    db
      .prepare(
        `SELECT s.run_id, s.synced_sha256, r.source_sha256 AS current_sha256, s.synced_at
         FROM sync_state s JOIN runs r ON r.id = s.run_id
         WHERE r.source_sha256 IS NOT s.synced_sha256 ORDER BY s.run_id`,
      )
      .all() as {
      run_id: string;
      synced_sha256: string | null;
      current_sha256: string | null;
      synced_at: string;
    }[]
  ).map((r) => ({
    runId: r.run_id,
    syncedSha256: r.synced_sha256,
    currentSha256: r.current_sha256,
    syncedAt: r.synced_at,
  }));
}
