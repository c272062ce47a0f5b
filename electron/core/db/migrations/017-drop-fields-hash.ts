import type { Migration } from './index';

/**
 * Nothing reads an example's `fields_hash` any more: the comparison reads each run's column
 * store, and the explorer, the CSV export and sync read `fields` itself. Dropping it saves a
 * hash per example while indexing and its 40 bytes per row. SQLite rewrites the table to drop
 * the column, once, when an existing library is opened.
 */
export const m017DropFieldsHash: Migration = {
  version: 17,
  name: 'drop-fields-hash',
  sql: `
ALTER TABLE examples DROP COLUMN fields_hash;
`,
};
