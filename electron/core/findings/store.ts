import { createHash, randomUUID } from 'node:crypto';
import type {
  FindingBody,
  FindingRow,
  FindingView,
  OutboxState,
  SavedRevision,
  Snapshot,
} from '../../../shared/findings';
import type { Db } from '../db/open';
import { ConflictError, NotFoundError } from '../errors';
import { enqueueFinding, findingKey } from '../sync/outbox';

/**
 * Findings and their revisions in SQLite. Revisions are append-only; each one is written with
 * its outbox row in one IMMEDIATE transaction, so once a save returns, the revision and its
 * place in the sync queue are committed together (docs/findings.md has the durability notes).
 */

interface FindingDbRow {
  id: string;
  experiment_id: string;
  title: string;
  created_at: string;
  updated_at: string;
  current_revision: number;
  sync_state: OutboxState | null;
}

interface RevisionDbRow {
  revision: number;
  saved_at: string;
  body: string;
  snapshot: string;
  snapshot_key: string;
}

const now = () => new Date().toISOString();

const FINDING_SELECT = `SELECT f.*, o.state AS sync_state FROM findings f
  LEFT JOIN outbox o ON o.idempotency_key = f.id || ':' || f.current_revision`;

function toRow(row: FindingDbRow): FindingRow {
  return {
    id: row.id,
    experimentId: row.experiment_id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    currentRevision: row.current_revision,
    syncState: row.sync_state,
  };
}

function findingRow(db: Db, findingId: string): FindingDbRow {
  const row = db.prepare(`${FINDING_SELECT} WHERE f.id = ?`).get(findingId) as
    FindingDbRow | undefined;
  if (!row) throw new NotFoundError(`There is no finding "${findingId}".`);
  return row;
}

/** Stored once per distinct snapshot: autosaves share it instead of copying the report. */
export function storeSnapshot(db: Db, snapshot: Snapshot): string {
  const json = JSON.stringify(snapshot);
  const key = createHash('sha256').update(json).digest('hex');
  db.prepare(
    `INSERT INTO finding_snapshots (key, snapshot) VALUES (?, ?) ON CONFLICT DO NOTHING`,
  ).run(key, json);
  return key;
}

/** A revision's body without its snapshot, which is stored apart and named by its key. */
export type FindingText = Omit<FindingBody, 'snapshot'>;

/**
 * A revision as it is stored. Edits, pins and restores carry the snapshot over by its key, so an
 * autosave never parses, serialises or hashes the report (~8 MB of JSON at a million pairs).
 */
export interface StoredRevision {
  text: FindingText;
  snapshotKey: string;
}

function appendRevision(
  db: Db,
  findingId: string,
  revision: number,
  { text, snapshotKey }: StoredRevision,
  at: string,
): void {
  db.prepare(
    `INSERT INTO finding_revisions (finding_id, revision, saved_at, body, snapshot_key) VALUES (?, ?, ?, ?, ?)`,
  ).run(findingId, revision, at, JSON.stringify(text), snapshotKey);
  enqueueFinding(db, findingId, revision, at);
}

export function createFinding(
  db: Db,
  experimentId: string,
  title: string,
  body: FindingBody,
): SavedRevision {
  const id = randomUUID();
  const at = now();
  const { snapshot, ...text } = body;
  db.transaction(() => {
    db.prepare(
      `INSERT INTO findings (id, experiment_id, title, created_at, updated_at, current_revision)
       VALUES (?, ?, ?, ?, ?, 1)`,
    ).run(id, experimentId, title, at, at);
    appendRevision(db, id, 1, { text, snapshotKey: storeSnapshot(db, snapshot) }, at);
  }).immediate();
  return savedRevision(db, id);
}

/**
 * Appends a revision made from the current one. With a base revision, a save from a stale
 * editor (another window saved in between) is refused instead of silently overwriting.
 */
export function saveRevision(
  db: Db,
  findingId: string,
  baseRevision: number | null,
  next: (current: StoredRevision) => StoredRevision,
  title?: string,
): SavedRevision {
  db.transaction(() => {
    const row = findingRow(db, findingId);
    if (baseRevision !== null && baseRevision !== row.current_revision) {
      throw new ConflictError(
        `This finding was saved elsewhere since revision ${baseRevision} (it is at revision ${row.current_revision}): reload it before saving.`,
      );
    }
    const stored = next(readStoredRevision(db, findingId, row.current_revision));
    const revision = row.current_revision + 1;
    const at = now();
    appendRevision(db, findingId, revision, stored, at);
    db.prepare(
      `UPDATE findings SET current_revision = ?, updated_at = ?, title = COALESCE(?, title) WHERE id = ?`,
    ).run(revision, at, title ?? null, findingId);
  }).immediate();
  return savedRevision(db, findingId);
}

/** A revision with its snapshot's key in place of the snapshot (the current one by default). */
export function readRevisionText(
  db: Db,
  findingId: string,
  revision?: number,
): { finding: FindingRow; revision: number; savedAt: string; stored: StoredRevision } {
  const row = findingRow(db, findingId);
  const number = revision ?? row.current_revision;
  const text = db
    .prepare(
      `SELECT saved_at, body, snapshot_key FROM finding_revisions WHERE finding_id = ? AND revision = ?`,
    )
    .get(findingId, number) as
    Pick<RevisionDbRow, 'saved_at' | 'body' | 'snapshot_key'> | undefined;
  if (!text) throw new NotFoundError(`Finding "${findingId}" has no revision ${number}.`);
  return {
    finding: toRow(row),
    revision: number,
    savedAt: text.saved_at,
    stored: { text: JSON.parse(text.body) as FindingText, snapshotKey: text.snapshot_key },
  };
}

export function readSnapshot(db: Db, key: string): Snapshot {
  const json = db
    .prepare(`SELECT snapshot FROM finding_snapshots WHERE key = ?`)
    .pluck()
    .get(key) as string | undefined;
  if (json === undefined) throw new NotFoundError(`There is no finding snapshot "${key}".`);
  return JSON.parse(json) as Snapshot;
}

export function readStoredRevision(db: Db, findingId: string, revision: number): StoredRevision {
  const row = db
    .prepare(
      `SELECT body, snapshot_key FROM finding_revisions WHERE finding_id = ? AND revision = ?`,
    )
    .get(findingId, revision) as Pick<RevisionDbRow, 'body' | 'snapshot_key'> | undefined;
  if (!row) throw new NotFoundError(`Finding "${findingId}" has no revision ${revision}.`);
  return { text: JSON.parse(row.body) as FindingText, snapshotKey: row.snapshot_key };
}

function readRevision(
  db: Db,
  findingId: string,
  revision: number,
): { savedAt: string; body: FindingBody } {
  const row = db
    .prepare(
      `SELECT r.revision, r.saved_at, r.body, r.snapshot_key, s.snapshot FROM finding_revisions r
       JOIN finding_snapshots s ON s.key = r.snapshot_key WHERE r.finding_id = ? AND r.revision = ?`,
    )
    .get(findingId, revision) as RevisionDbRow | undefined;
  if (!row) throw new NotFoundError(`Finding "${findingId}" has no revision ${revision}.`);
  const text = JSON.parse(row.body) as FindingText;
  return {
    savedAt: row.saved_at,
    body: { ...text, snapshot: JSON.parse(row.snapshot) as Snapshot },
  };
}

/** The finding's row and its current revision, without reading the revision's body. */
export function savedRevision(db: Db, findingId: string): SavedRevision {
  const row = findingRow(db, findingId);
  const { saved_at } = db
    .prepare(`SELECT saved_at FROM finding_revisions WHERE finding_id = ? AND revision = ?`)
    .get(findingId, row.current_revision) as { saved_at: string };
  return { finding: toRow(row), revision: row.current_revision, savedAt: saved_at };
}

export function getFinding(db: Db, findingId: string, revision?: number): FindingView {
  const row = findingRow(db, findingId);
  const number = revision ?? row.current_revision;
  const { savedAt, body } = readRevision(db, findingId, number);
  return { finding: toRow(row), revision: number, savedAt, body };
}

export function listFindings(db: Db, experimentId?: string): FindingRow[] {
  const where = experimentId === undefined ? '' : 'WHERE f.experiment_id = ?';
  const rows = db
    .prepare(`${FINDING_SELECT} ${where} ORDER BY f.updated_at DESC, f.id`)
    .all(...(experimentId === undefined ? [] : [experimentId])) as FindingDbRow[];
  return rows.map(toRow);
}

export function listRevisions(
  db: Db,
  findingId: string,
): { revision: number; savedAt: string; summary: string; snapshotKey: string }[] {
  findingRow(db, findingId);
  const rows = db
    .prepare(
      `SELECT revision, saved_at, json_extract(body, '$.conclusion') AS conclusion, snapshot_key
       FROM finding_revisions WHERE finding_id = ? ORDER BY revision DESC`,
    )
    .all(findingId) as {
    revision: number;
    saved_at: string;
    conclusion: string | null;
    snapshot_key: string;
  }[];
  return rows.map((r) => ({
    revision: r.revision,
    savedAt: r.saved_at,
    summary: (r.conclusion ?? '').trim().split('\n')[0]!.slice(0, 200),
    snapshotKey: r.snapshot_key,
  }));
}

/** What POST /api/v1/findings carries: the revision with its snapshot (docs/sync.md). */
export function findingPayload(db: Db, findingId: string, revision: number): unknown {
  const row = findingRow(db, findingId);
  const { savedAt, body } = readRevision(db, findingId, revision);
  return {
    id: findingKey(findingId, revision),
    finding_id: findingId,
    revision,
    experiment_id: row.experiment_id,
    title: row.title,
    saved_at: savedAt,
    body,
  };
}
