import { z } from 'zod';
import { findingBodySchema } from '../../../shared/findings';
import type { Db } from '../db/open';
import { storeSnapshot } from '../findings/store';

/**
 * The receiving end of sync (docs/lab-server.md): a library that takes what another Pairwise
 * pushes. Findings arrive as revisions with their snapshot and are stored as they were saved
 * elsewhere, idempotently by finding id and revision; they are not queued in this library's
 * own outbox, since this library did not write them.
 */

export const receivedRevisionSchema = z.object({
  id: z.string().min(1).max(2100),
  finding_id: z.string().min(1).max(1000),
  revision: z.number().int().min(1),
  experiment_id: z.string().min(1).max(1000),
  title: z.string().min(1).max(500),
  saved_at: z.string().min(1).max(100),
  body: findingBodySchema,
});
export type ReceivedRevision = z.infer<typeof receivedRevisionSchema>;

/** `stored` the first time; `known` for a repeat; `conflict` when this library holds another revision under that number. */
export type ReceiveOutcome = 'stored' | 'known' | 'conflict';

/** The experiment a run of the library belongs to, or null when the library has no such run. */
export function runExperiment(db: Db, runId: string): string | null {
  const row = db.prepare(`SELECT experiment_id FROM runs WHERE id = ?`).get(runId) as
    { experiment_id: string } | undefined;
  return row?.experiment_id ?? null;
}

export function storeReceivedRevision(db: Db, received: ReceivedRevision): ReceiveOutcome {
  const { finding_id: findingId, revision, saved_at: savedAt } = received;
  return db
    .transaction((): ReceiveOutcome => {
      const existing = db
        .prepare(`SELECT saved_at FROM finding_revisions WHERE finding_id = ? AND revision = ?`)
        .get(findingId, revision) as { saved_at: string } | undefined;
      if (existing) return existing.saved_at === savedAt ? 'known' : 'conflict';
      const finding = db
        .prepare(`SELECT current_revision FROM findings WHERE id = ?`)
        .get(findingId) as { current_revision: number } | undefined;
      if (!finding) {
        db.prepare(
          `INSERT INTO findings (id, experiment_id, title, created_at, updated_at, current_revision)
           VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(findingId, received.experiment_id, received.title, savedAt, savedAt, revision);
      } else if (revision > finding.current_revision) {
        // Revisions may arrive out of order after retries: the newest is the current one.
        db.prepare(
          `UPDATE findings SET current_revision = ?, updated_at = ?, title = ? WHERE id = ?`,
        ).run(revision, savedAt, received.title, findingId);
      }
      const { snapshot, ...text } = received.body;
      db.prepare(
        `INSERT INTO finding_revisions (finding_id, revision, saved_at, body, snapshot_key) VALUES (?, ?, ?, ?, ?)`,
      ).run(findingId, revision, savedAt, JSON.stringify(text), storeSnapshot(db, snapshot));
      return 'stored';
    })
    .immediate();
}
