import type { Migration } from './index';

/**
 * Whether a pair's rows are in whole-number order (compare/id-order.ts): ids such as
 * lm-evaluation-harness's `doc_id` are listed 2 before 10, and the explorer's binary searches
 * compare them that way. Earlier pairs are in byte order, which 0 says; their reports are no
 * longer served from the cache (compare/store.ts, `REPORT_RULES`), so a pair is saved anew in
 * the new order the next time it is compared.
 */
export const m022WholeNumberIds: Migration = {
  version: 22,
  name: 'whole-number-ids',
  sql: `
ALTER TABLE pair_arrays ADD COLUMN whole_number_ids INTEGER NOT NULL DEFAULT 0;
`,
};
