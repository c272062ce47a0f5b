import type { Migration } from './index';

/**
 * A sample's transcript (Inspect messages and events, REPS model calls) beside its example, so
 * the examples table, its hashes and its full-text index stay as they are, and reading a page
 * of examples never reads a transcript. Deleting an example deletes its transcript. A long
 * transcript is stored deflated (ingest/trace-pack.ts): they repeat themselves (prompts, tool
 * output) and are read one at a time.
 */
export const m010ExampleTraces: Migration = {
  version: 10,
  name: 'example-traces',
  sql: `
CREATE TABLE example_traces (
  example_rowid INTEGER PRIMARY KEY REFERENCES examples(rowid) ON DELETE CASCADE,
  trace BLOB NOT NULL
) STRICT;
`,
};
