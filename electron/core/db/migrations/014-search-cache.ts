import type { Migration } from './index';

/**
 * Full-text search becomes a cache filled after indexing commits (search/indexer.ts) instead
 * of inside the indexing transaction. The index no longer reads its content from `examples`
 * (contentless, with deletes by rowid), so an example can be deleted before its words were
 * ever indexed without corrupting it. `run_search` says how far each run's examples are
 * indexed, whether the run is searchable, and the rowid span of its examples (which the
 * indexer records as it writes them). Every run starts unsearchable and the background job
 * rebuilds the index from the example rows.
 */
export const m014SearchCache: Migration = {
  version: 14,
  name: 'search-cache',
  sql: `
DROP TRIGGER examples_ad;
DROP TABLE examples_fts;
CREATE VIRTUAL TABLE examples_fts USING fts5(
  input, output, content='', contentless_delete=1, tokenize='unicode61', detail=column
);
CREATE TRIGGER examples_ad AFTER DELETE ON examples BEGIN
  DELETE FROM examples_fts WHERE rowid = old.rowid;
END;
CREATE TABLE run_search (
  run_rowid INTEGER PRIMARY KEY REFERENCES runs(rowid) ON DELETE CASCADE,
  indexed_to INTEGER NOT NULL DEFAULT 0,
  done INTEGER NOT NULL DEFAULT 0,
  ready INTEGER NOT NULL DEFAULT 0,
  first_rowid INTEGER,
  last_rowid INTEGER
) STRICT;
INSERT INTO run_search (run_rowid, first_rowid, last_rowid)
  SELECT rowid, (SELECT min(e.rowid) FROM examples e WHERE e.run_rowid = runs.rowid),
    (SELECT max(e.rowid) FROM examples e WHERE e.run_rowid = runs.rowid) FROM runs;
`,
};
