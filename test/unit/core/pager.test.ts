import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ftsQuery } from '../../../electron/core/compare/filters';
import { countExamples, exampleDetail, pageExamples } from '../../../electron/core/compare/pager';
import { openPair } from '../../../electron/core/compare/pair-cache';
import { pruneReports } from '../../../electron/core/compare/store';
import { examplesCsv } from '../../../electron/core/export/csv';
import type { CriterionClass } from '../../../shared/compare/types';
import {
  CRITERIA,
  explorerLibrary,
  filterArb,
  flagsArb,
  modelReport,
  sorted,
  type ExplorerLibrary,
  type Sort,
  unchangedFlags,
} from '../../fixtures/explorer';
import { makeService, type Harness } from '../../fixtures/service';

let harness: Harness;
let library: ExplorerLibrary;
beforeAll(async () => {
  harness = makeService();
  library = await explorerLibrary(harness);
}, 60_000);

afterAll(async () => {
  await harness.close();
});

describe('explorer search', () => {
  it('turns what a person types into all-words FTS syntax, never operators', () => {
    expect(ftsQuery("can't help")).toBe('"can"* "t"* "help"*');
    expect(ftsQuery('" OR NEAR(x')).toBe('"OR"* "NEAR"* "x"*');
    expect(ftsQuery('refusé 42')).toBe('"refusé"* "42"*');
    expect(ftsQuery('*** ---')).toBeNull();
  });
});

describe("a search's first page without its count", () => {
  it('comes from the first rows alone when they fill it, the same rows as from every match', async () => {
    const key = 'report-first-rows';
    await library.store(key, library.modelRows(library.ids.map(() => unchangedFlags)));
    const db = harness.service.db;
    const ask = (search: string, countTotal: boolean, limit: number) =>
      pageExamples(db, {
        reportKey: key,
        pair: 0,
        filter: { search },
        sort: 'example_id',
        descending: false,
        after: null,
        limit,
        countTotal,
      });
    const memo = () => openPair(db, key, 0).memo;
    const fast = ask('apple', false, 2);
    expect(fast.rows).toHaveLength(2);
    expect(memo().has(JSON.stringify(['search', 'apple']))).toBe(false);
    const full = ask('apple', true, 2);
    expect(memo().has(JSON.stringify(['search', 'apple']))).toBe(true);
    expect({ ...fast, total: null }).toEqual({ ...full, total: null });
    // A search whose first rows hold less than a page finds every match.
    ask('ex-02', false, 1);
    expect(memo().has(JSON.stringify(['search', 'ex-02']))).toBe(true);
  });

  it('sorted by a flag, makes no order, its matches found already or not', async () => {
    const key = 'report-flag-search';
    const flags = library.ids.map((_, k) => ({ ...unchangedFlags, output_changed: k % 3 === 0 }));
    await library.store(key, library.modelRows(flags));
    const db = harness.service.db;
    const ask = (countTotal: boolean, sort: Sort) =>
      pageExamples(db, {
        reportKey: key,
        pair: 0,
        filter: { search: 'apple' },
        sort,
        descending: true,
        after: null,
        limit: 2,
        countTotal,
      });
    const ordered = () =>
      openPair(db, key, 0).memo.has(JSON.stringify(['order', 'output_changed', null]));
    const first = ask(false, 'output_changed');
    expect(ordered()).toBe(false);
    // The search's matches made by a page that counts them: the next first page walks them.
    ask(true, 'example_id');
    expect(ask(false, 'output_changed')).toEqual(first);
    expect(ordered()).toBe(false);
  });
});

/**
 * Random filters, sorts and page sizes, paged to the end, against the brute-force model: the
 * rows, their classes and the count.
 */
function everyPageMatchesTheModel(
  harness: Harness,
  library: ExplorerLibrary,
  nextKey: () => string,
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(
      flagsArb,
      filterArb,
      fc.constantFrom<Sort>('example_id', 'output_changed', 'behavior_changed', 'delta'),
      fc.constantFrom(...CRITERIA, 'absent'),
      fc.boolean(),
      fc.integer({ min: 1, max: 9 }),
      // Without its count, a search's first page may come from its first rows alone.
      fc.boolean(),
      async (flags, filter, sort, sortCriterion, descending, limit, countFirst) => {
        const key = nextKey();
        const model = library.modelRows(flags);
        await library.store(key, model);
        const db = harness.service.db;
        const expected = sorted(
          model.filter((r) => library.matches(r, filter)),
          sort,
          descending,
          sortCriterion,
        );
        const seen: { id: string; classes: Record<string, string> }[] = [];
        let after: string | null = null;
        let first = true;
        do {
          const page = pageExamples(db, {
            reportKey: key,
            pair: 0,
            filter,
            sort,
            sortCriterion,
            descending,
            after,
            limit,
            countTotal: countFirst,
          });
          if (first) expect(page.total).toBe(countFirst ? expected.length : null);
          first = false;
          seen.push(...page.rows.map((r) => ({ id: r.example_id, classes: r.classes })));
          after = page.next;
        } while (after);
        expect(seen).toEqual(expected.map((r) => ({ id: r.id, classes: r.classes })));
        expect(countExamples(db, { reportKey: key, pair: 0, filter }).total).toBe(expected.length);
      },
    ),
    { numRuns: 150 },
  );
}

describe('explorer pages and counts against a brute-force filter', () => {
  let reports = 0;

  it('every filter, sort and page size gives exactly the matching rows, classes and count', () =>
    everyPageMatchesTheModel(harness, library, () => `report-${reports++}`));

  it('pages on through the rows with no difference, one at a time (their cursor has no value)', async () => {
    const key = `report-${reports++}`;
    const model = library.modelRows(
      library.ids.map((_, k) => ({ ...unchangedFlags, deltas: [k === 3 ? -1 : null, null] })),
    );
    await library.store(key, model);
    const ids: string[] = [];
    let after: string | null = null;
    do {
      const page = pageExamples(harness.service.db, {
        reportKey: key,
        pair: 0,
        filter: {},
        sort: 'delta',
        sortCriterion: 'refused',
        descending: false,
        after,
        limit: 1,
      });
      ids.push(...page.rows.map((r) => r.example_id));
      after = page.next;
    } while (after);
    expect(ids).toEqual(sorted(model, 'delta', false, 'refused').map((r) => r.id));
    expect(ids).toHaveLength(library.ids.length);
  });

  it('the CSV export holds one row per matching paired example, every criterion as columns', async () => {
    await fc.assert(
      fc.asyncProperty(flagsArb, filterArb, async (flags, filter) => {
        const key = `report-${reports++}`;
        const model = library.modelRows(flags);
        await library.store(key, model);
        const csv = examplesCsv(harness.service.db, key, modelReport, { filter });
        expect(csv.content.startsWith('\uFEFF')).toBe(true);
        const [head, ...lines] = csv.content
          .slice(1)
          .trimEnd()
          .split('\r\n')
          .map((line) => line.split(','));
        const column = (name: string) => head!.indexOf(name);
        const sorted = [...CRITERIA].sort();
        const got = lines.map((cells) =>
          [cells[column('example_id')], ...sorted.map((c) => cells[column(`${c}.change`)])].join(
            ' ',
          ),
        );
        const want = model
          .filter((r) => library.matches(r, { ...filter, side: 'both' }))
          .map((r) => [r.id, ...sorted.map((c) => r.classes[c])].join(' '));
        expect(got).toEqual(want);
        expect(csv.examples).toBe(want.length);
      }),
      { numRuns: 60 },
    );
  });

  it("an example's detail has every criterion's class", async () => {
    const model = library.modelRows(
      library.ids.map((_, k) => ({
        input_mismatch: false,
        output_changed: k % 2 === 0,
        behavior_changed: false,
        classes: [k % 3 === 0 ? 'regressed' : 'unchanged', 'unchanged'] as [
          CriterionClass,
          CriterionClass,
        ],
      })),
    );
    await library.store('detail', model);
    const detail = exampleDetail(harness.service.db, {
      reportKey: 'detail',
      pair: 0,
      exampleId: model[0]!.id,
    });
    expect(detail.classes).toEqual({ refused: 'regressed', score: 'unchanged' });
    expect(() =>
      exampleDetail(harness.service.db, { reportKey: 'detail', pair: 0, exampleId: 'ex-999' }),
    ).toThrow('is not in this comparison');
  });
});

describe('explorer cursors and missing reports', () => {
  const page = (input: Partial<Parameters<typeof pageExamples>[1]>) =>
    pageExamples(harness.service.db, {
      reportKey: 'cursors',
      pair: 0,
      filter: {},
      sort: 'example_id',
      descending: false,
      after: null,
      limit: 3,
      ...input,
    });

  it('refuses a cursor it did not make, and keeps the place of one whose row is gone', async () => {
    await library.store('cursors');
    for (const [sort, after] of [
      ['example_id', 'not json'],
      ['example_id', '[1]'],
      ['output_changed', '["x","ex-001"]'],
      ['output_changed', '[null,"ex-001"]'],
      ['delta', '["x","ex-001"]'],
    ] as const)
      expect(() => page({ sort, after, sortCriterion: 'score' })).toThrow('not made by this list');
    expect(page({ after: '["ex-0105","ex-0105"]' }).rows.map((r) => r.example_id)).toEqual([
      'ex-011',
      'ex-012',
      'ex-013',
    ]);
    expect(
      page({ after: '["ex-0105","ex-0105"]', descending: true }).rows.map((r) => r.example_id),
    ).toEqual(['ex-010', 'ex-009', 'ex-008']);
  });

  it('a report saved again under its key is read again, not served from the kept pair', async () => {
    const flagged = (output: boolean) =>
      library.modelRows(library.ids.map(() => ({ ...unchangedFlags, output_changed: output })));
    await library.store('again', flagged(false));
    expect(page({ reportKey: 'again', filter: { outputChanged: true } }).total).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await library.store('again', flagged(true));
    expect(page({ reportKey: 'again', filter: { outputChanged: true } }).total).toBe(
      library.ids.length,
    );
  });

  it('answers a pair the report lacks with no rows, and a dropped report with "run it again"', async () => {
    await library.store('cursors');
    expect(page({ pair: 5 })).toEqual({ rows: [], next: null, total: 0 });
    expect(() => page({ reportKey: 'never-saved' })).toThrow('no longer cached');
  });
});

describe('saving a report', () => {
  it('waits for another writer to finish instead of failing, and can be cancelled meanwhile', async () => {
    const other = new Database(harness.service.db.name);
    const db = harness.service.db;
    const timeout = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 10');
    try {
      other.exec('BEGIN IMMEDIATE');
      let waits = 0;
      const cancelled = library.store('waits-cancelled', undefined, () => {
        waits++;
        if (waits > 3) throw new Error('cancelled');
        return new Promise((resolve) => setTimeout(resolve, 5));
      });
      await expect(cancelled).rejects.toThrow('cancelled');
      waits = 0;
      const saved = library.store('waits', undefined, () => {
        if (++waits === 3) other.exec('COMMIT');
        return new Promise((resolve) => setTimeout(resolve, 5));
      });
      await saved;
      expect(waits).toBeGreaterThanOrEqual(3);
      const keys = db.prepare(`SELECT key FROM reports WHERE key LIKE 'waits%'`).pluck().all();
      expect(keys).toEqual(['waits']);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      db.pragma(`busy_timeout = ${timeout}`);
    }
  });

  it('keeps every report until pruned, then only the six newest, each dropped with all its rows', async () => {
    const db = harness.service.db;
    for (let k = 0; k < 8; k++) await library.store(`kept-${k}`);
    const ids = () =>
      db
        .prepare(`SELECT id FROM reports WHERE experiment_id = 'exp-test' ORDER BY id`)
        .pluck()
        .all() as number[];
    const before = ids();
    expect(before.length).toBeGreaterThanOrEqual(8);
    expect(await pruneReports(db, 'exp-test')).toBe(before.length - 6);
    expect(ids()).toEqual(before.slice(-6));
    const keys = db.prepare(`SELECT key FROM reports ORDER BY id`).pluck().all();
    expect(keys).toEqual(['kept-2', 'kept-3', 'kept-4', 'kept-5', 'kept-6', 'kept-7']);
    const orphans = db
      .prepare(`SELECT COUNT(*) FROM pair_arrays WHERE report_id NOT IN (SELECT id FROM reports)`)
      .pluck()
      .get();
    expect(orphans).toBe(0);
    expect(await pruneReports(db, 'exp-test')).toBe(0);
  });
});

describe.each([
  { style: 'numbers' as const, id: (n: number) => String(n) },
  { style: 'prefixed' as const, id: (n: number) => `HumanEval/${n}` },
])('explorer pages of numbered ids ($style: lm-eval doc_id, HumanEval/n)', ({ style, id }) => {
  let numbered: Harness;
  let numbers: ExplorerLibrary;
  let reports = 0;
  beforeAll(async () => {
    numbered = makeService();
    numbers = await explorerLibrary(numbered, style);
  }, 60_000);
  afterAll(() => numbered.close());

  it('lists them by number, 2 before 10, both ways and across pages', async () => {
    await numbers.store(`${style}-by-id`);
    const ask = (descending: boolean, after: string | null) =>
      pageExamples(numbered.service.db, {
        reportKey: `${style}-by-id`,
        pair: 0,
        filter: {},
        sort: 'example_id',
        descending,
        after,
        limit: 10,
      });
    const first = ask(false, null);
    expect(first.rows.map((r) => r.example_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(id));
    expect(ask(false, first.next).rows.map((r) => r.example_id)[0]).toBe(id(11));
    expect(
      ask(true, null)
        .rows.map((r) => r.example_id)
        .slice(0, 3),
    ).toEqual([30, 29, 28].map(id));
  });

  it('every filter, sort and page size gives exactly the matching rows, classes and count', () =>
    everyPageMatchesTheModel(numbered, numbers, () => `${style}-${reports++}`));
});
