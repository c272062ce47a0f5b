import type { Migration } from './index';

/**
 * The full-text index with `detail=column`: no token positions, so phrase queries go (search is
 * all-words, see compare/pager.ts) and indexing runs about a third faster, the FTS insert being
 * most of the writer's cost per example.
 */
export const m005FtsDetailColumn: Migration = {
  version: 5,
  name: 'fts-detail-column',
  sql: `
DROP TRIGGER examples_ai;
DROP TRIGGER examples_ad;
DROP TABLE examples_fts;
CREATE VIRTUAL TABLE examples_fts USING fts5(
  input, output, content='examples', content_rowid='rowid', tokenize='unicode61', detail=column
);
CREATE TRIGGER examples_ai AFTER INSERT ON examples BEGIN
  INSERT INTO examples_fts(rowid, input, output) VALUES (new.rowid, new.input, new.output);
END;
CREATE TRIGGER examples_ad AFTER DELETE ON examples BEGIN
  INSERT INTO examples_fts(examples_fts, rowid, input, output) VALUES ('delete', old.rowid, old.input, old.output);
END;
INSERT INTO examples_fts(examples_fts) VALUES ('rebuild');
`,
};
