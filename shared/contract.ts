import { z } from 'zod';
import type { ReportView } from './report-view';
import { jobSchema, jobProgressSchema } from './jobs';
import { traceSchema } from './trace';
import { changeClassSchema, examplesFilterSchema } from './examples-filter';
// findings & sync
import {
  editableBodySchema,
  findingRowSchema,
  openedFindingSchema,
  outboxStateSchema,
  revisionRowSchema,
  savedRevisionSchema,
  stalenessSchema,
  syncPlanSchema,
  syncStatusSchema,
} from './findings';

/**
 * The one contract between the renderer and the core. Both hosts (the Electron bridge and the
 * HTTP server) validate every input with these schemas before the service sees it, and the
 * renderer only ever calls names listed here.
 */

// Modules of their own, so that the renderer's first chunk reads an address without building
// every schema here.
export { changeClassSchema, examplesFilterSchema } from './examples-filter';
export { pairExperimentId } from './pair-experiment';

const empty = z.object({}).strict();

export const roleSchema = z.enum(['reference', 'intervention', 'control', 'unknown']);

export const librarySummarySchema = z.object({
  projects: z.number(),
  experiments: z.number(),
  runs: z.number(),
  examples: z.number(),
  sources: z.number(),
  problems: z.number(),
  folders: z.array(z.object({ path: z.string(), watched: z.boolean() })),
});

export const problemSchema = z.object({
  path: z.string(),
  message: z.string(),
  importer: z.string().nullable(),
  at: z.string().nullable(),
});

export const runRowSchema = z.object({
  run_id: z.string(),
  format: z.string(),
  project: z.string(),
  experiment_id: z.string(),
  condition: z.string(),
  role: z.string().nullable(),
  series: z.string().nullable(),
  level: z.number().nullable(),
  examples: z.number(),
  state: z.string(),
  superseded: z.boolean(),
  missing: z.boolean(),
  path: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  warnings: z.array(z.string()),
});

export const referenceBasisSchema = z.enum(['chosen', 'declared', 'name', 'earliest']);
export type ReferenceBasis = z.infer<typeof referenceBasisSchema>;

export const experimentRowSchema = z.object({
  id: z.string(),
  project: z.string(),
  name: z.string(),
  question: z.string().nullable(),
  claim: z.string().nullable(),
  declared: z.boolean(),
  reference: z.string().nullable(),
  /** How the reference was chosen: by hand, declared in the files, or guessed. */
  referenceBasis: referenceBasisSchema.nullable(),
  conditions: z.number(),
  runs: z.number(),
  examples: z.number(),
  formats: z.array(z.string()),
  /** When its latest run finished (else its file's time): the app starts on the latest. */
  lastRunAt: z.string().nullable(),
});

export const conditionRowSchema = z.object({
  name: z.string(),
  role: roleSchema,
  series: z.string().nullable(),
  level: z.number().nullable(),
  expect: z.record(z.string(), z.enum(['increase', 'decrease', 'no_effect'])),
  compareTo: z.array(z.string()),
  settings: z.record(z.string(), z.unknown()),
  representativeRunId: z.string(),
  runs: z.array(runRowSchema),
});

const id = z.string().min(1).max(1000);

/** Where "group runs by" would put each run, shown before anything changes. */
export const groupingPlanSchema = z.object({
  field: z.string(),
  moves: z.array(
    z.object({ runId: z.string(), from: z.string(), to: z.string(), role: roleSchema }),
  ),
  conditions: z.array(z.object({ name: z.string(), role: roleSchema, runs: z.number() })),
  /** How many runs change condition. */
  changes: z.number(),
  notes: z.array(z.string()),
});

/** What removing a watched folder takes away, and what another folder still provides. */
export const folderRemovalSchema = z.object({
  path: z.string(),
  runs: z.number(),
  sources: z.number(),
  /** Runs inside the folder that stay, because another watched folder holds their files. */
  kept: z.number(),
  keptBy: z.array(z.string()),
});
const resamples = z.number().int().min(100).max(200_000);
// findings & sync
const revisionNumber = z.number().int().min(1);
/** A user name or password in the address would put a secret in the database. */
const endpointSchema = z
  .string()
  .max(2000)
  .refine((text) => {
    try {
      const url = new URL(text);
      return ['https:', 'http:'].includes(url.protocol) && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an http(s) address without a user name or password');

export const experimentCompareSchema = z
  .object({
    experimentId: id,
    reference: id.optional(),
    resamples: resamples.optional(),
  })
  .strict();

/** Every condition of an experiment against its reference, or any two runs. */
export const compareSettingsSchema = z.union([
  experimentCompareSchema,
  z
    .object({
      baseline: id,
      candidate: id,
      resamples: resamples.optional(),
    })
    .strict(),
]);

/**
 * Why an example's texts cannot be shown: they are read from the source file until the
 * library has archived them, and that file changed or vanished since indexing.
 */
export const unavailableSchema = z.enum(['source-changed', 'source-missing']);
export type Unavailable = z.infer<typeof unavailableSchema>;

export const pairRowSchema = z.object({
  example_id: z.string(),
  side: z.enum(['both', 'reference', 'candidate']),
  input_mismatch: z.boolean(),
  output_changed: z.boolean(),
  behavior_changed: z.boolean(),
  classes: z.record(z.string(), changeClassSchema),
  values: z.record(z.string(), z.object({ reference: z.unknown(), candidate: z.unknown() })),
  input: z.string(),
  /** Set when `input` is empty because neither side's input could be read. */
  input_unavailable: unavailableSchema.nullable(),
});

/**
 * A search on a pair whose runs are not yet in the full-text index (it is filled in the
 * background after indexing): how many of their examples are indexed so far. The answer then
 * holds no rows; ask again later.
 */
export const searchPendingSchema = z.object({ done: z.number(), total: z.number() });

export const exampleSideSchema = z
  .object({
    run_id: z.string(),
    input: z.string(),
    output: z.string(),
    fields: z.record(z.string(), z.unknown()),
    target: z.string().nullable(),
    error: z.string().nullable(),
    /** Set when `input` and `output` are empty because they could not be read. */
    unavailable: unavailableSchema.nullable(),
  })
  .nullable();

export const requests = {
  'app:info': {
    input: empty,
    output: z.object({
      name: z.string(),
      version: z.string(),
      host: z.enum(['desktop', 'browser', 'cli']),
      dbPath: z.string(),
      dataDir: z.string(),
      canPickFolders: z.boolean(),
      /** Set by a lab server for a session that may only read (a reviewer, or --read-only). */
      readOnly: z.boolean().optional(),
    }),
  },
  'library:summary': { input: empty, output: librarySummarySchema },
  'library:problems': { input: empty, output: z.array(problemSchema) },
  'library:addFolder': {
    input: z
      .object({
        path: z.string().min(1).max(4096),
        watch: z.boolean().default(true),
        /** For an s3:// path: an S3-compatible store's URL (none: AWS, or as added before). */
        endpoint: z.string().min(1).max(2048).optional(),
      })
      .strict(),
    output: z.object({ jobId: z.string() }),
  },
  'library:removeFolder': {
    input: z.object({ path: z.string().min(1).max(4096) }).strict(),
    output: z.object({ removed: z.boolean(), runs: z.number(), kept: z.number() }),
  },
  'library:openSample': { input: empty, output: z.object({ jobId: z.string() }) },
  'runs:list': {
    input: z.object({ experimentId: z.string().optional() }).strict(),
    output: z.array(runRowSchema),
  },
  'experiments:list': { input: empty, output: z.array(experimentRowSchema) },
  'conditions:list': {
    input: z.object({ experimentId: id }).strict(),
    output: z.array(conditionRowSchema),
  },
  'conditions:setRole': {
    input: z.object({ experimentId: id, condition: id, role: roleSchema }).strict(),
    output: z.object({ ok: z.literal(true) }),
  },
  'conditions:setRepresentative': {
    input: z.object({ experimentId: id, condition: id, runId: id }).strict(),
    output: z.object({ ok: z.literal(true) }),
  },
  'runs:setOverride': {
    input: z
      .object({
        runId: id,
        role: roleSchema.nullable().optional(),
        condition: id.nullable().optional(),
      })
      .strict(),
    output: z.object({ ok: z.literal(true) }),
  },
  'compare:start': { input: compareSettingsSchema, output: z.object({ jobId: z.string() }) },
  /**
   * The cached report for the UI: its id lists come as counts (shared/report-view.ts); the
   * examples are paged with examples:page.
   */
  'compare:report': {
    input: compareSettingsSchema,
    output: z
      .object({ key: z.string(), createdAt: z.string(), report: z.custom<ReportView>() })
      .nullable(),
  },
  'examples:page': {
    input: z
      .object({
        reportKey: id,
        pair: z.number().int().min(0),
        filter: examplesFilterSchema.default({}),
        sort: z
          .enum(['example_id', 'output_changed', 'behavior_changed', 'delta'])
          .default('example_id'),
        /**
         * With sort 'delta': the criterion whose per-example difference (candidate − reference)
         * orders the rows; rows with no numeric difference come after, by example id.
         */
        sortCriterion: z.string().max(10_000).optional(),
        descending: z.boolean().default(false),
        after: z.string().max(2000).nullable().default(null),
        limit: z.number().int().min(1).max(1000).default(200),
        /** The UI asks for the count separately so the first page is not held up by it. */
        countTotal: z.boolean().default(true),
      })
      .strict(),
    output: z.object({
      rows: z.array(pairRowSchema),
      next: z.string().nullable(),
      /** Counted on the first page only (null on later pages). */
      total: z.number().nullable(),
      searchPending: searchPendingSchema.optional(),
    }),
  },
  'examples:count': {
    input: z
      .object({
        reportKey: id,
        pair: z.number().int().min(0),
        filter: examplesFilterSchema.default({}),
      })
      .strict(),
    output: z.object({ total: z.number(), searchPending: searchPendingSchema.optional() }),
  },
  'examples:detail': {
    input: z
      .object({ reportKey: id, pair: z.number().int().min(0), exampleId: z.string().max(10_000) })
      .strict(),
    output: z.object({
      example_id: z.string(),
      reference: exampleSideSchema,
      candidate: exampleSideSchema,
      classes: z.record(z.string(), changeClassSchema),
    }),
  },
  // workbench UI
  'runs:groupBy': {
    input: z.object({ experimentId: id, field: z.string().min(1).max(500) }).strict(),
    output: z.object({ conditions: z.number() }),
  },
  // actions with a net
  'runs:groupPreview': {
    input: z.object({ experimentId: id, field: z.string().min(1).max(500) }).strict(),
    output: groupingPlanSchema,
  },
  'runs:groupUndo': {
    input: z.object({ experimentId: id }).strict(),
    output: z.object({ undone: z.boolean() }),
  },
  'runs:lastGrouping': {
    input: z.object({ experimentId: id }).strict(),
    output: z.object({ field: z.string(), appliedAt: z.string() }).nullable(),
  },
  'conditions:setSeries': {
    input: z
      .object({
        experimentId: id,
        condition: id,
        series: z.string().min(1).max(500).nullable(),
        level: z.number().finite().nullable(),
      })
      .strict(),
    output: z.object({ ok: z.literal(true) }),
  },
  'examples:trace': {
    input: z
      .object({ reportKey: id, pair: z.number().int().min(0), exampleId: z.string().max(10_000) })
      .strict(),
    output: z.object({ reference: traceSchema.nullable(), candidate: traceSchema.nullable() }),
  },
  'library:folderRemoval': {
    input: z.object({ path: z.string().min(1).max(4096) }).strict(),
    output: folderRemovalSchema,
  },
  'settings:fields': {
    input: z.object({ experimentId: id }).strict(),
    output: z.array(z.string()),
  },
  'export:examplesCsv': {
    input: z
      .object({
        reportKey: id,
        pair: z.number().int().min(0).optional(),
        filter: examplesFilterSchema.optional(),
      })
      .strict(),
    /** One row per paired example: `rows` and `examples` are the same number. */
    output: z.object({
      filename: z.string(),
      content: z.string(),
      rows: z.number(),
      examples: z.number(),
    }),
  },
  'export:summaryCsv': {
    input: z.object({ reportKey: id }).strict(),
    output: z.object({ filename: z.string(), content: z.string(), rows: z.number() }),
  },
  // findings & sync
  'findings:list': {
    input: z.object({ experimentId: id.optional() }).strict(),
    output: z.array(findingRowSchema),
  },
  // A finding with its report as a ReportView (OpenedFinding in shared/findings.ts).
  'findings:create': { input: experimentCompareSchema, output: openedFindingSchema },
  'findings:get': {
    input: z.object({ findingId: id, revision: revisionNumber.optional() }).strict(),
    output: openedFindingSchema,
  },
  'findings:save': {
    input: z
      .object({
        findingId: id,
        body: editableBodySchema,
        baseRevision: revisionNumber,
        title: z.string().min(1).max(500).optional(),
      })
      .strict(),
    output: savedRevisionSchema,
  },
  'findings:revisions': {
    input: z.object({ findingId: id }).strict(),
    output: z.array(revisionRowSchema),
  },
  'findings:restore': {
    input: z.object({ findingId: id, revision: revisionNumber }).strict(),
    output: openedFindingSchema,
  },
  'findings:staleness': {
    input: z.object({ findingId: id }).strict(),
    output: stalenessSchema,
  },
  'findings:refresh': {
    input: z.object({ findingId: id }).strict(),
    output: openedFindingSchema,
  },
  'findings:export': {
    input: z
      .object({
        findingId: id,
        format: z.enum(['markdown', 'html']),
        revision: revisionNumber.optional(),
      })
      .strict(),
    output: z.object({ filename: z.string(), content: z.string() }),
  },
  'findings:pin': {
    input: z
      .object({
        findingId: id,
        reportKey: id,
        pair: z.number().int().min(0),
        exampleId: z.string().max(10_000),
        note: z.string().max(200_000).optional(),
      })
      .strict(),
    output: openedFindingSchema,
  },
  'sync:status': {
    input: z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict(),
    output: syncStatusSchema,
  },
  'sync:configure': {
    input: z
      .object({
        url: endpointSchema.nullable(),
        /** Kept by the host's SecretStore, never in the database; null forgets it. */
        apiKey: z.string().min(1).max(1000).nullable().optional(),
      })
      .strict(),
    output: syncStatusSchema,
  },
  'sync:run': {
    input: z
      .object({
        dryRun: z.boolean().default(false),
        /** Queue only these experiments' runs (every current run when left out). */
        experimentIds: z.array(id).max(10_000).optional(),
      })
      .strict(),
    output: z.object({ jobId: z.string().nullable(), plan: syncPlanSchema }),
  },
  'sync:retryNow': {
    input: z.object({ id: z.number().int().min(1).optional() }).strict(),
    output: z.object({ retried: z.number(), jobId: z.string().nullable() }),
  },
  'jobs:list': { input: empty, output: z.array(jobSchema) },
  'jobs:cancel': {
    input: z.object({ jobId: z.string().min(1) }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  },
} as const;

export const events = {
  'job:progress': z.object({ jobId: z.string(), progress: jobProgressSchema }),
  'job:finished': z.object({ job: jobSchema }),
  'jobs:changed': z.object({}),
  'index:changed': z.object({ runs: z.number() }),
  'compare:ready': z.object({ experimentId: z.string(), key: z.string() }),
  // findings & sync
  'sync:changed': z.object({ counts: z.record(outboxStateSchema, z.number()) }),
} as const;

export type RequestName = keyof typeof requests;
export type EventName = keyof typeof events;
export type RequestInput<N extends RequestName> = z.input<(typeof requests)[N]['input']>;
export type ParsedInput<N extends RequestName> = z.output<(typeof requests)[N]['input']>;
export type RequestOutput<N extends RequestName> = z.output<(typeof requests)[N]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export type ErrorCode =
  'bad_request' | 'not_found' | 'unknown_request' | 'conflict' | 'forbidden' | 'internal';
export type ContractError = { code: ErrorCode; message: string };
export type Result<T> = { ok: true; value: T } | { ok: false; error: ContractError };

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requests, name);
}

/** A zod error as one sentence a person can read: "path.to.field: problem; …". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}
