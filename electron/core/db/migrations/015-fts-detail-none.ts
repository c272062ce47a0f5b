import type { Migration } from './index';

/**
 * The full-text index keeps no column lists (`detail=none`): a search is every word as a
 * quoted prefix over inputs and outputs together, never a column filter or a phrase of several
 * words, which `detail=column` refused as well, so every search matches the same rows. Without
 * them the background fill writes ~1.5× as many examples a second. (`columnsize=0` would save
 * more, but FTS5 refuses it with `contentless_delete=1`, which deleting by rowid needs.) Every
 * run starts unsearchable again and the background job rebuilds the index.
 */
export const m015FtsDetailNone: Migration = {
  version: 15,
  name: 'fts-detail-none',
  sql: `
DROP TRIGGER examples_ad;
DROP TABLE examples_fts;
CREATE VIRTUAL TABLE examples_fts USING fts5(
  input, output, content='', contentless_delete=1, tokenize='unicode61', detail=none
);
CREATE TRIGGER examples_ad AFTER DELETE ON examples BEGIN
  DELETE FROM examples_fts WHERE rowid = old.rowid;
END;
UPDATE run_search SET indexed_to = 0, done = 0, ready = 0;
`,
};
