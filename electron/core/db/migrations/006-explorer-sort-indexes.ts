import type { Migration } from './index';

/** Sorting a million pairs by "output changed" should read an index, not sort them all first. */
export const m006ExplorerSortIndexes: Migration = {
  version: 6,
  name: 'explorer-sort-indexes',
  sql: `
CREATE INDEX pair_rows_by_output ON pair_rows(report_key, pair, output_changed, example_id);
CREATE INDEX pair_rows_by_behavior ON pair_rows(report_key, pair, behavior_changed, example_id);
`,
};
