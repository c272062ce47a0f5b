import type { Migration } from './index';

/**
 * Texts move from one row per example to blocks per run (electron/core/texts/): `run_texts`
 * holds a run's examples BLOCK_SIZE at a time, in the order they were imported, and an
 * example is named everywhere by its key (texts/keys.ts) instead of an `examples` rowid.
 * Libraries indexed before keep their example rows until the conversion job moves each run
 * into blocks (texts/convert.ts) and deletes its rows.
 */
export const m018RunTexts: Migration = {
  version: 18,
  name: 'run-texts',
  sql: `
CREATE TABLE run_texts (
  run_rowid INTEGER NOT NULL REFERENCES runs(rowid) ON DELETE CASCADE,
  block INTEGER NOT NULL,
  encoding TEXT NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (run_rowid, block)
) STRICT;
`,
};
