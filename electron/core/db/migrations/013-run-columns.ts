import type { Migration } from './index';

/**
 * One column store per run (columns/format.ts), written in the transaction that writes the
 * run, so the comparison reads a run as a few blobs instead of a row per example. A store
 * larger than one blob is split into parts. Runs indexed before this migration get theirs
 * from their example rows on the next open (columns/backfill.ts); until then they load from
 * the rows.
 */
export const m013RunColumns: Migration = {
  version: 13,
  name: 'run-columns',
  sql: `
CREATE TABLE run_columns (
  run_rowid INTEGER NOT NULL REFERENCES runs(rowid) ON DELETE CASCADE,
  part INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (run_rowid, part)
) STRICT;
`,
};
