import type { Migration } from './index';

/**
 * Examples are named by key (texts/keys.ts) instead of an `examples` rowid, and new runs write
 * no example rows. Until the conversion job (texts/convert.ts) has moved a library's old runs
 * into blocks, old rowids and new keys live side by side, so nothing may let one be taken for
 * the other:
 * - a transcript no longer points at an example row: old ones are parked at minus their rowid
 *   (never a key) until their run is converted;
 * - the full-text index is emptied and every run made unsearchable, and example rows no longer
 *   delete index entries (an old rowid can equal a new key): the background fill rebuilds it
 *   from blocks as runs are converted;
 * - a deleted run takes its index entries and transcripts with it, by its key span;
 * - cached comparisons point at old rowids and are dropped (recomputed on the next compare;
 *   findings keep their own frozen snapshot).
 */
export const m019KeysNotRows: Migration = {
  version: 19,
  name: 'keys-not-rows',
  sql: `
CREATE TABLE example_traces_by_key (
  example_rowid INTEGER PRIMARY KEY,
  trace BLOB NOT NULL
) STRICT;
INSERT INTO example_traces_by_key (example_rowid, trace)
  SELECT -example_rowid, trace FROM example_traces;
DROP TABLE example_traces;
ALTER TABLE example_traces_by_key RENAME TO example_traces;

DROP TRIGGER examples_ad;
INSERT INTO examples_fts (examples_fts) VALUES ('delete-all');
UPDATE run_search SET indexed_to = 0, done = 0, ready = 0, first_rowid = NULL, last_rowid = NULL;

CREATE TRIGGER runs_keys_ad AFTER DELETE ON runs BEGIN
  DELETE FROM examples_fts WHERE rowid BETWEEN old.rowid * 16777216 AND old.rowid * 16777216 + 16777215;
  DELETE FROM example_traces WHERE example_rowid BETWEEN old.rowid * 16777216 AND old.rowid * 16777216 + 16777215;
END;

DELETE FROM reports;
`,
};
