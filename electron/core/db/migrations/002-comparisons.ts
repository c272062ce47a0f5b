import type { Migration } from './index';

export const m002Comparisons: Migration = {
  version: 2,
  name: 'comparisons',
  sql: `
-- Roles and representative runs chosen by hand for a whole condition; like run_overrides,
-- keyed by names that survive a re-index.
CREATE TABLE condition_overrides (
  experiment_id TEXT NOT NULL,
  condition_name TEXT NOT NULL,
  role TEXT,
  representative_run_id TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (experiment_id, condition_name)
) STRICT;

-- A computed experiment report. The key covers every input that can change it (run ids, the
-- sha256 of their sources, the checker version, the settings), so a re-indexed run simply
-- misses the cache.
CREATE TABLE reports (
  key TEXT PRIMARY KEY,
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

-- One row per example id of a compared pair: what the explorer pages through.
CREATE TABLE pair_rows (
  report_key TEXT NOT NULL REFERENCES reports(key) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  example_id TEXT NOT NULL,
  ref_rowid INTEGER,
  cand_rowid INTEGER,
  side TEXT NOT NULL CHECK (side IN ('both', 'reference', 'candidate')),
  input_mismatch INTEGER NOT NULL,
  output_changed INTEGER NOT NULL,
  behavior_changed INTEGER NOT NULL,
  classes TEXT NOT NULL,
  PRIMARY KEY (report_key, pair, example_id)
) STRICT, WITHOUT ROWID;

-- The per-criterion class of each example, for filtering by "regressed on refused" in SQL.
CREATE TABLE pair_classes (
  report_key TEXT NOT NULL REFERENCES reports(key) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  criterion TEXT NOT NULL,
  class TEXT NOT NULL,
  example_id TEXT NOT NULL,
  PRIMARY KEY (report_key, pair, criterion, class, example_id)
) STRICT, WITHOUT ROWID;
`,
};
