import { z } from 'zod';

export const jobKindSchema = z.enum(['index', 'compare', 'sync', 'demo', 'search', 'archive']);
export type JobKind = z.infer<typeof jobKindSchema>;

export const jobStateSchema = z.enum(['running', 'finished', 'failed', 'cancelled', 'interrupted']);
export type JobState = z.infer<typeof jobStateSchema>;

export const jobProgressSchema = z.object({
  phase: z.string(),
  done: z.number(),
  total: z.number().nullable(),
  bytes: z.number().nullable().optional(),
  /** Bytes the whole job will read, when known: progress inside one large file shows by bytes. */
  totalBytes: z.number().nullable().optional(),
  detail: z.string().nullable().optional(),
  /**
   * Sources of an index pass that failed so far, each on Problems: a pass that ends "done" may
   * still have failed in part, and its final progress says how much.
   */
  failed: z.number().nullable().optional(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;

export const jobSchema = z.object({
  id: z.string(),
  kind: jobKindSchema,
  title: z.string(),
  state: jobStateSchema,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  progress: jobProgressSchema.nullable(),
  error: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;
