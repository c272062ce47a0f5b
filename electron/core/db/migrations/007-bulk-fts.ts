import type { Migration } from './index';

/**
 * No per-row full-text insert: the indexer fills `examples_fts` once per run, in the same
 * transaction that writes the run's examples (ingest/store.ts), which is several times cheaper
 * than one FTS5 insert per example. Deletes keep their trigger, so removing or re-indexing a
 * source still takes its words out of the index.
 */
export const m007BulkFts: Migration = {
  version: 7,
  name: 'bulk-fts',
  sql: `
DROP TRIGGER examples_ai;
`,
};
