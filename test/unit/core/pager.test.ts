import { afterEach, describe, expect, it } from 'vitest';
import { ftsQuery, whereClause } from '../../../electron/core/compare/pager';
import { makeService, type Harness } from '../../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe('explorer search', () => {
  it('turns what a person types into all-words FTS syntax, never operators', () => {
    expect(ftsQuery("can't help")).toBe('"can" "t" "help"');
    expect(ftsQuery('" OR NEAR(x')).toBe('"OR" "NEAR" "x"');
    expect(ftsQuery('refusé 42')).toBe('"refusé" "42"');
    expect(ftsQuery('*** ---')).toBeNull();
  });
});

describe('explorer filters', () => {
  it('"any criterion <class>" is answered from the class index, not by scanning every class row', () => {
    harness = makeService();
    const where = whereClause({ reportKey: 'k', pair: 0, filter: { changeClass: 'regressed' } });
    const plan = harness.service.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT pr.example_id FROM pair_rows pr WHERE ${where.sql} LIMIT 200`,
      )
      .all(...where.params) as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/pair_classes_by_class/);
  });
});
