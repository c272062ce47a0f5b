import type { Migration } from './index';

/**
 * One row per compared pair holding its explorer data as typed arrays (compare/pair-arrays.ts),
 * in place of one row per example in pair_rows, pair_classes, pair_deltas and pair_counts:
 * saving a million pairs was most of a comparison's time. What report_pairs held (criteria,
 * each side's run and rowid range) moves into the same row. Cached reports are dropped, so
 * nothing points at the dropped tables; they are recomputed on the next compare. Findings keep
 * their own frozen snapshot and are untouched.
 */
export const m012PairArrays: Migration = {
  version: 12,
  name: 'pair-arrays',
  sql: `
DELETE FROM reports;

DROP TABLE pair_deltas;
DROP TABLE pair_counts;
DROP TABLE pair_classes;
DROP TABLE pair_rows;
DROP TABLE report_pairs;

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
  example_ids BLOB NOT NULL,
  id_offsets BLOB NOT NULL,
  ref_rowids BLOB NOT NULL,
  cand_rowids BLOB NOT NULL,
  flags BLOB NOT NULL,
  classes BLOB NOT NULL,
  deltas BLOB NOT NULL,
  counts TEXT NOT NULL,
  PRIMARY KEY (report_id, pair)
) STRICT;
`,
};
