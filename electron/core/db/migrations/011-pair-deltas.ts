import type { Migration } from './index';

/**
 * How far each example moved under each criterion whose values are numbers (candidate −
 * reference), so the explorer can list the largest regressions first by walking an index
 * instead of sorting a million rows. A row exists only where both values are numbers. Cached
 * reports are dropped: they have no differences stored and are recomputed on the next compare.
 */
export const m011PairDeltas: Migration = {
  version: 11,
  name: 'pair-deltas',
  sql: `
DELETE FROM reports;

CREATE TABLE pair_deltas (
  report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
  pair INTEGER NOT NULL,
  criterion TEXT NOT NULL,
  delta REAL NOT NULL,
  example_id TEXT NOT NULL,
  PRIMARY KEY (report_id, pair, criterion, delta, example_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX pair_deltas_by_example ON pair_deltas(report_id, pair, criterion, example_id);
`,
};
