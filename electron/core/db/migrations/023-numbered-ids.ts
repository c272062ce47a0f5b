import type { Migration } from './index';

/**
 * Migration 22's flag now covers numbered ids (compare/id-order.ts): a shared prefix and a
 * whole number, as `HumanEval/12` or `sample_3`, as well as the bare numbers it was added for,
 * so it takes that name. Pairs saved with the old rule are saved anew (`REPORT_RULES` 7).
 */
export const m023NumberedIds: Migration = {
  version: 23,
  name: 'numbered-ids',
  sql: `
ALTER TABLE pair_arrays RENAME COLUMN whole_number_ids TO numbered_ids;
`,
};
