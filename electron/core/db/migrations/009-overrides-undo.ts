import type { Migration } from './index';

/**
 * A series declared by hand is kept like a role (per condition name, across re-indexes), and
 * "Group runs by" keeps the overrides it replaced so that one step can be undone after a reload.
 */
export const m009OverridesUndo: Migration = {
  version: 9,
  name: 'overrides-undo',
  sql: `
ALTER TABLE condition_overrides ADD COLUMN series TEXT;
ALTER TABLE condition_overrides ADD COLUMN level REAL;

CREATE TABLE grouping_undo (
  experiment_id TEXT PRIMARY KEY,
  field TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  run_overrides TEXT NOT NULL,
  condition_overrides TEXT NOT NULL
) STRICT;
`,
};
