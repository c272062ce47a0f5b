import type { Migration } from './index';

/**
 * A pair's big arrays move out of `pair_arrays` into a file beside the library, named by the row
 * (compare/pair-files.ts): reading 38 MB of BLOBs was most of the explorer's first query at a
 * million examples. Cached reports are dropped rather than moved (a cache: the next compare
 * recomputes them); findings keep their own frozen snapshot and are untouched.
 */
export const m020PairFiles: Migration = {
  version: 20,
  name: 'pair-files',
  sql: `
DELETE FROM reports;

DROP TABLE pair_arrays;

CREATE TABLE pair_arrays (
  report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  rows INTEGER NOT NULL,
  criteria TEXT NOT NULL,
  ref_run_rowid INTEGER NOT NULL,
  ref_first INTEGER,
  ref_last INTEGER,
  cand_run_rowid INTEGER NOT NULL,
  cand_first INTEGER,
  cand_last INTEGER,
  file TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  counts TEXT NOT NULL,
  PRIMARY KEY (report_id, pair)
) STRICT;
`,
};
