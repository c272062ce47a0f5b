import { z } from 'zod';
import type { Report } from './compare/types';
import { reportView, type ReportView } from './report-view';

/**
 * The shapes of a finding (docs/findings.md) and of the sync outbox as the contract shows them.
 * The core stores and validates them; the renderer edits the parts a researcher writes.
 */

const text = z.string().max(200_000);
const name = z.string().min(1).max(1000);

export const limitationSchema = z
  .object({
    id: z.string().min(1).max(100),
    text,
    /** `candidate`: proposed by Pairwise from the evidence; `researcher`: typed by a person. */
    origin: z.enum(['candidate', 'researcher']),
    /** Only `accepted` and `edited` limitations are exported. */
    status: z.enum(['accepted', 'edited', 'dismissed', 'proposed']),
  })
  .strict();
export type Limitation = z.infer<typeof limitationSchema>;

/** A pin as the researcher refers to it; the core keeps both outputs next to it. */
export const pinRefSchema = z
  .object({
    reportKey: name,
    pair: z.number().int().min(0),
    exampleId: z.string().max(10_000),
    note: text,
  })
  .strict();

/** One side of a pinned example, copied when pinned so the finding outlives the report cache. */
export const pinnedSideSchema = z
  .object({ condition: z.string(), runId: z.string(), input: z.string(), output: z.string() })
  .nullable();

export const pinSchema = pinRefSchema.extend({
  reference: pinnedSideSchema,
  candidate: pinnedSideSchema,
});
export type Pin = z.infer<typeof pinSchema>;

/** The evidence a revision stands on; only findings:refresh or findings:restore replace it. */
export const snapshotSchema = z.object({
  reportKey: z.string(),
  reportCreatedAt: z.string(),
  settings: z.object({ experimentId: z.string(), reference: z.string(), resamples: z.number() }),
  runs: z.array(
    z.object({ runId: z.string(), condition: z.string(), sourceSha256: z.string().nullable() }),
  ),
  /** The seeds are per interval, in the report. */
  bootstrap: z.object({ resamples: z.number(), method: z.string() }),
  report: z.custom<Report>(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** What a researcher edits; findings:save takes this (the snapshot is carried over). */
export const editableBodySchema = z
  .object({
    question: text,
    claim: text,
    protocol: text,
    /** Only ever the researcher's words: Pairwise never writes a conclusion. */
    conclusion: text,
    limitations: z.array(limitationSchema).max(1000),
    pinned: z.array(pinRefSchema).max(1000),
  })
  .strict();
export type EditableBody = z.infer<typeof editableBodySchema>;

export const findingBodySchema = editableBodySchema.extend({
  pinned: z.array(pinSchema),
  snapshot: snapshotSchema,
});
export type FindingBody = z.infer<typeof findingBodySchema>;

export const findingRowSchema = z.object({
  id: z.string(),
  experimentId: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  currentRevision: z.number(),
  /** The outbox state of the current revision (it is queued even while sync is off). */
  syncState: z.enum(['pending', 'synced', 'rejected', 'retrying', 'stopped']).nullable(),
});
export type FindingRow = z.infer<typeof findingRowSchema>;

export const findingViewSchema = z.object({
  finding: findingRowSchema,
  revision: z.number(),
  savedAt: z.string(),
  body: findingBodySchema,
});
export type FindingView = z.infer<typeof findingViewSchema>;

/**
 * A finding as the app receives it: the frozen report counted into a `ReportView`. At a million
 * pairs the report's id lists are ~8 MB of JSON the findings view never reads (it shows how many
 * there are); the stored revision, the exports, sync and the CLI keep the full report.
 */
export const openedFindingSchema = findingViewSchema.extend({
  body: findingBodySchema.extend({
    snapshot: snapshotSchema.extend({ report: z.custom<ReportView>() }),
  }),
});
export type OpenedFinding = z.infer<typeof openedFindingSchema>;
export type OpenedBody = OpenedFinding['body'];
export type SnapshotView = OpenedBody['snapshot'];

export function snapshotView(snapshot: Snapshot): SnapshotView {
  return { ...snapshot, report: reportView(snapshot.report) };
}

/**
 * What findings:save answers: the revision it wrote. A save carries the evidence over unchanged,
 * so the editor already holds it; an autosave sends none of it back.
 */
export const savedRevisionSchema = findingViewSchema.pick({
  finding: true,
  revision: true,
  savedAt: true,
});
export type SavedRevision = z.infer<typeof savedRevisionSchema>;

export const revisionRowSchema = z.object({
  revision: z.number(),
  savedAt: z.string(),
  /** The first line of the conclusion, for a history list. */
  summary: z.string(),
  snapshotKey: z.string(),
});

export const metricValueSchema = z
  .object({
    difference: z.number().nullable(),
    ci95: z.tuple([z.number(), z.number()]).nullable(),
    n: z.number().nullable(),
    verdict: z.string().nullable(),
  })
  .nullable();

export const stalenessSchema = z.object({
  stale: z.boolean(),
  runs: z.array(
    z.object({
      runId: z.string(),
      condition: z.string(),
      change: z.enum(['added', 'removed', 'changed']),
    }),
  ),
  /** Metric by metric, where the current report's numbers differ from the snapshot's. */
  changes: z.array(
    z.object({
      metric: z.string(),
      /** "<candidate> vs <reference>" */
      comparison: z.string(),
      before: metricValueSchema,
      after: metricValueSchema,
    }),
  ),
});
export type Staleness = z.infer<typeof stalenessSchema>;

export const outboxStateSchema = z.enum(['pending', 'synced', 'rejected', 'retrying', 'stopped']);
export type OutboxState = z.infer<typeof outboxStateSchema>;

export const outboxItemSchema = z.object({
  id: z.number(),
  kind: z.enum(['run', 'finding']),
  itemId: z.string(),
  idempotencyKey: z.string(),
  state: outboxStateSchema,
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  remoteUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

export const syncStatusSchema = z.object({
  /** An endpoint and a key are both known. */
  configured: z.boolean(),
  endpoint: z.string().nullable(),
  endpointSource: z.enum(['env', 'settings']).nullable(),
  keySource: z.enum(['env', 'store']).nullable(),
  /**
   * Where a key given in the app is kept: the OS keychain (desktop with one), or memory until
   * Pairwise quits (CLI, browser host, or a desktop without a keychain).
   */
  keyStorage: z.enum(['keychain', 'memory']),
  counts: z.record(outboxStateSchema, z.number()),
  /** The newest outbox rows first (at most `limit`). */
  items: z.array(outboxItemSchema),
  changedSinceSync: z.array(
    z.object({
      runId: z.string(),
      syncedSha256: z.string().nullable(),
      currentSha256: z.string().nullable(),
      syncedAt: z.string(),
    }),
  ),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

export const syncPlanSchema = z.object({
  /** Current runs not yet in the outbox: sync:run enqueues them. */
  newRuns: z.array(z.string()),
  /** Outbox rows a pass would send (stopped ones included: an explicit sync resumes them), in order. */
  queued: z.array(outboxItemSchema),
});
export type SyncPlan = z.infer<typeof syncPlanSchema>;
