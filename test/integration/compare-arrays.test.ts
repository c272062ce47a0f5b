import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLASSES, FLAG, NO_ROWID, sideOf } from '../../electron/core/compare/codes';
import { computeComparison, type PairRows } from '../../electron/core/compare/compute';
import { pageExamples } from '../../electron/core/compare/pager';
import { pairDir } from '../../electron/core/compare/pair-files';
import { idList } from '../../electron/core/compare/pair-ids';
import { writeMechlensRun, type ExampleSpec } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/**
 * Ids whose UTF-16 and UTF-8 orders differ (an astral character sorts below U+E000–U+FFFF in
 * UTF-16, above it in UTF-8), examples on one side only, changed outputs, numbers, booleans
 * and categories: what the stored arrays must carry exactly.
 */
function spec(count: number, salt: number, skip: number): ExampleSpec[] {
  const ids = ['ex-\u{1F600}', 'ex-\uFF21', 'ex-É', 'EX-upper'];
  return Array.from({ length: count }, (_, i) => i)
    .filter((i) => i % 7 !== skip)
    .map((i) => ({
      id: ids[i] ?? `ex-${String(i).padStart(3, '0')}`,
      input: `Prompt ${i} ${i % 3 === 0 ? 'apple' : 'fig'}`,
      output: `Answer ${i % (salt + 2)}`,
      fields: {
        refused: (i + salt) % 3 === 0,
        score: ((i * (salt + 1)) % 5) + 0.5,
        mood: ['calm', 'tense'][(i + salt) % 2],
      },
    }));
}

function library(dir: string): string {
  const root = path.join(dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: spec(60, 0, 3) });
  writeMechlensRun(root, {
    id: 'steer',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: spec(64, 1, 5),
  });
  writeMechlensRun(root, {
    id: 'ctrl',
    name: 'control',
    experiment: { id: 'exp-test', role: 'control' },
    examples: spec(58, 2, 6),
  });
  return root;
}

const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A computed pair's rows as the explorer must list them by example id. */
function expectedRows(rows: PairRows) {
  return idList(rows.ids)
    .map((id, k) => ({
      example_id: id,
      side: sideOf(rows.flags[k]!),
      input_mismatch: (rows.flags[k]! & FLAG.inputMismatch) !== 0,
      output_changed: (rows.flags[k]! & FLAG.outputChanged) !== 0,
      behavior_changed: (rows.flags[k]! & FLAG.behaviorChanged) !== 0,
      classes: Object.fromEntries(rows.criteria.map((c, i) => [c, CLASSES[rows.classes[i]![k]!]])),
      hasRef: rows.refRowids[k] !== NO_ROWID,
    }))
    .sort((a, b) => utf8Order(a.example_id, b.example_id));
}

describe('a comparison saved as arrays', () => {
  it('saves the same pair files when the worker compares the same runs again', async () => {
    harness = makeService();
    await harness.service.index([library(harness.dir)]);
    const db = harness.service.db;
    const files = (key: string) =>
      (
        db
          .prepare(
            `SELECT file FROM pair_arrays WHERE report_id = (SELECT id FROM reports WHERE key = ?)
             ORDER BY pair`,
          )
          .pluck()
          .all(key) as string[]
      ).map((file) => fs.readFileSync(path.join(pairDir(db), file)));
    const first = await harness.service.compare.run({ experimentId: 'exp-test', resamples: 500 });
    const again = await harness.service.compare.run({ experimentId: 'exp-test', resamples: 501 });
    expect(again.key).not.toBe(first.key);
    expect(files(first.key).length).toBeGreaterThan(1);
    expect(files(again.key)).toEqual(files(first.key));
  });

  it('stores the report exactly as computed, and the explorer lists every computed row', async () => {
    harness = makeService();
    await harness.service.index([library(harness.dir)]);
    const settings = { experimentId: 'exp-test', resamples: 500 };
    const stored = await harness.service.compare.run(settings);
    const db = harness.service.db;
    const computed = computeComparison(
      db,
      { ...harness.service.compare.plan(settings), dbPath: db.name },
      () => undefined,
    );
    expect(JSON.stringify(stored.report)).toBe(JSON.stringify(computed.report));
    expect(computed.pairs.length).toBeGreaterThan(1);

    for (const rows of computed.pairs) {
      const page = pageExamples(db, {
        reportKey: stored.key,
        pair: rows.pair,
        filter: {},
        sort: 'example_id',
        descending: false,
        after: null,
        limit: 1000,
      });
      const want = expectedRows(rows);
      expect(page.total).toBe(want.length);
      expect(
        page.rows.map(
          ({ example_id, side, input_mismatch, output_changed, behavior_changed, classes }) => ({
            example_id,
            side,
            input_mismatch,
            output_changed,
            behavior_changed,
            classes,
          }),
        ),
      ).toEqual(want.map(({ hasRef: _, ...row }) => row));
      // The page's texts and values come from the examples the arrays point at.
      for (const row of page.rows) expect(row.input).toMatch(/^Prompt \d+ (apple|fig)$/);

      // By a criterion's difference: the computed deltas in order, ties by UTF-8 id.
      const c = rows.criteria.indexOf('score');
      const byDelta = pageExamples(db, {
        reportKey: stored.key,
        pair: rows.pair,
        filter: {},
        sort: 'delta',
        sortCriterion: 'score',
        descending: true,
        after: null,
        limit: 1000,
      }).rows.map((r) => r.example_id);
      const ids = idList(rows.ids);
      const delta = (id: string) => rows.deltas[c]![ids.indexOf(id)]!;
      const moved = ids
        .filter((id) => !Number.isNaN(delta(id)))
        .sort((a, b) => delta(b) - delta(a) || utf8Order(b, a));
      const rest = ids.filter((id) => Number.isNaN(delta(id))).sort(utf8Order);
      expect(byDelta).toEqual([...moved, ...rest]);
    }
  });

  it('finds ids by a search that ignores ASCII case only, as SQL LIKE did', async () => {
    harness = makeService();
    await harness.service.index([library(harness.dir)]);
    const stored = await harness.service.compare.run({ experimentId: 'exp-test', resamples: 100 });
    const ids = (search: string) =>
      pageExamples(harness!.service.db, {
        reportKey: stored.key,
        pair: 0,
        filter: { search },
        sort: 'example_id',
        descending: false,
        after: null,
        limit: 1000,
      }).rows.map((r) => r.example_id);
    expect(ids('ex-u')).toEqual(['EX-upper']);
    expect(ids('X-É')).toEqual(['ex-É']);
    expect(ids('x-é')).toEqual([]);
    expect(ids('\u{1F600}')).toEqual(['ex-\u{1F600}']);
    expect(ids('apple').length).toBeGreaterThan(0);
  });
});
