import type { Migration } from './index';

/**
 * "Any criterion regressed" filters pair_classes by class without a criterion; the primary key
 * leads with the criterion, so without this index SQLite scanned every class row per example.
 */
export const m004ExplorerIndexes: Migration = {
  version: 4,
  name: 'explorer-indexes',
  sql: `
CREATE INDEX pair_classes_by_class ON pair_classes(report_key, pair, class, example_id);
`,
};
