import type { Migration } from './index';

/**
 * Pair rows keyed by an integer report id instead of the 64-character report key, no class row
 * for the 'unchanged' class (absence means unchanged; report_pairs lists each pair's criteria), no duplicate JSON of the classes, and per-pair counts so the explorer's common counts
 * are one lookup. Cached reports are dropped: they are a cache, recomputed on the next compare.
 */
export const m008CompactPairRows: Migration = {
  version: 8,
  name: 'compact-pair-rows',
  sql: `
DROP TABLE pair_classes;
DROP TABLE pair_rows;
DROP TABLE report_runs;
DROP TABLE reports;

CREATE TABLE reports (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  experiment_id TEXT NOT NULL,
  settings TEXT NOT NULL,
  report TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX reports_experiment ON reports(experiment_id, created_at);

CREATE TABLE report_runs (
  report_key TEXT NOT NULL REFERENCES reports(key) ON DELETE CASCADE,
  run_id TEXT NOT NULL,
  PRIMARY KEY (run_id, report_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX report_runs_by_report ON report_runs(report_key);

CREATE TABLE pair_rows (
  report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  example_id TEXT NOT NULL,
  ref_rowid INTEGER,
  cand_rowid INTEGER,
  side TEXT NOT NULL CHECK (side IN ('both', 'reference', 'candidate')),
  input_mismatch INTEGER NOT NULL,
  output_changed INTEGER NOT NULL,
  behavior_changed INTEGER NOT NULL,
  PRIMARY KEY (report_id, pair, example_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX pair_rows_by_output ON pair_rows(report_id, pair, output_changed, example_id);
CREATE INDEX pair_rows_by_behavior ON pair_rows(report_id, pair, behavior_changed, example_id);

-- What the explorer needs to know of each compared pair: its criteria in the report's order (a
-- pair row with no class row for one of them is 'unchanged' on it), and each side's run with
-- the rowid range of its examples, which bounds the full-text search.
CREATE TABLE report_pairs (
  report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  criteria TEXT NOT NULL,
  ref_run_rowid INTEGER NOT NULL,
  ref_first INTEGER,
  ref_last INTEGER,
  cand_run_rowid INTEGER NOT NULL,
  cand_first INTEGER,
  cand_last INTEGER,
  PRIMARY KEY (report_id, pair)
) STRICT, WITHOUT ROWID;

-- Every class but 'unchanged', one row per example and criterion.
CREATE TABLE pair_classes (
  report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  criterion TEXT NOT NULL,
  class TEXT NOT NULL CHECK (class IN ('improved', 'regressed', 'changed', 'not_comparable')),
  example_id TEXT NOT NULL,
  PRIMARY KEY (report_id, pair, criterion, class, example_id)
) STRICT, WITHOUT ROWID;

-- How many pair rows match each one-condition filter (see compare/counts.ts for the keys).
CREATE TABLE pair_counts (
  report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  filter TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (report_id, pair, filter)
) STRICT, WITHOUT ROWID;
`,
};
