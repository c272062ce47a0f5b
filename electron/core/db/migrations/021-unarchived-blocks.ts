import type { Migration } from './index';

/**
 * The blocks the archive has still to rewrite (texts/archive.ts, `UNARCHIVED`), indexed by
 * themselves: finding whether any is left read every block's row, 4,000 of them in a 1 GB
 * library, on the service's thread each time search settled (at open among others): 116–134 ms
 * from a cold page cache once everything was archived and the answer was none.
 */
export const m021UnarchivedBlocks: Migration = {
  version: 21,
  name: 'unarchived-blocks',
  sql: `
CREATE INDEX run_texts_unarchived ON run_texts (run_rowid, block)
  WHERE encoding IN ('json', 'located', 'deflate');
`,
};
