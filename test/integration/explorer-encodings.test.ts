import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleDetail, pageExamples } from '../../electron/core/compare/pager';
import { BLOCK_SIZE } from '../../electron/core/texts/blocks';
import { LOCATED } from '../../electron/core/texts/located';
import { SECTIONS } from '../../electron/core/texts/sections';
import type { ParsedInput, RequestOutput } from '../../shared/contract';
import type { JsonObject } from '../../shared/model';
import { indexAndCompare } from '../fixtures/compared';
import { writeMechlensRun } from '../fixtures/formats';
import { locateRunThen, restoreBlocks, type Restored } from '../fixtures/located';
import { makeService, type Harness } from '../fixtures/service';

type Page = RequestOutput<'examples:page'>;
type PageInput = ParsedInput<'examples:page'>;

/** Two and a half blocks per run, so pages sorted by a difference read from every block. */
const COUNT = Math.round(2.5 * BLOCK_SIZE);

interface Example {
  id: string;
  input: string;
  output: string;
  fields: JsonObject;
}

/**
 * Every kind of field a column store holds differently: numbers, booleans, a categorical
 * string, mixed kinds (held as JSON), one absent or null in some examples, and a list (detail,
 * never a criterion). Some ids are on one side only, and some inputs differ between sides.
 */
function examples(side: 'ref' | 'cand'): Example[] {
  const shift = side === 'ref' ? 0 : 1;
  const list: Example[] = [];
  for (let i = 0; i < COUNT; i++) {
    if (i % 50 === (side === 'ref' ? 7 : 13)) continue;
    const j = i + shift * (i % 3);
    const fields: JsonObject = {
      score: j % 5,
      passed: j % 4 !== 0,
      label: ['yes', 'no', 'maybe'][j % 3]!,
      mixed: j % 4 === 0 ? 'n/a' : j % 7,
      choices: [j, j + 1],
    };
    if (i % 3 === 0) fields.sometimes = i % 6 === 0 ? null : j;
    list.push({
      id: `ex-${String(i).padStart(4, '0')}`,
      input: `Question ${i}${side === 'cand' && i % 10 === 3 ? ' (reworded)' : ''}: what does the passage say about the harvest?`,
      output: `The passage says the harvest of year ${j} came ${side === 'ref' ? 'late' : 'early'} that season.`,
      fields,
    });
  }
  return list;
}

let harness: Harness;
let reportKey: string;
const runs = { ref: examples('ref'), cand: examples('cand') };

beforeAll(async () => {
  harness = makeService();
  const root = path.join(harness.dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: runs.ref });
  writeMechlensRun(root, {
    id: 'cand',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: runs.cand,
  });
  const { service } = harness;
  reportKey = await indexAndCompare(service, root, 'exp-test', 200);
}, 60_000);

afterAll(async () => {
  await harness.close();
});

const QUERIES: Partial<PageInput>[] = [
  { sort: 'example_id', limit: 97 },
  { sort: 'delta', sortCriterion: 'score', limit: 61 },
  { sort: 'delta', sortCriterion: 'score', descending: true, filter: { outputChanged: true } },
  { sort: 'output_changed', descending: true, filter: { side: 'candidate' }, limit: 40 },
  { sort: 'example_id', filter: { criterion: 'label', changeClass: 'changed' }, limit: 75 },
];

/** Every page of every query, as the explorer asks for them. */
function allPages(): Page[][] {
  return QUERIES.map((query) => {
    const pages: Page[] = [];
    let after: string | null = null;
    do {
      const page = pageExamples(harness.service.db, {
        reportKey,
        pair: 0,
        filter: {},
        sort: 'example_id',
        descending: false,
        limit: 200,
        ...query,
        after,
      });
      pages.push(page);
      after = page.next;
    } while (after);
    return pages;
  });
}

/** The detail of examples on both sides, on one side only, and with different inputs. */
const DETAILED = ['ex-0000', 'ex-0007', 'ex-0013', 'ex-0263', 'ex-0639'];

function details(): RequestOutput<'examples:detail'>[] {
  return DETAILED.map((exampleId) =>
    exampleDetail(harness.service.db, { reportKey, pair: 0, exampleId }),
  );
}

function encodings(): string[] {
  return harness.service.db
    .prepare(`SELECT DISTINCT encoding FROM run_texts ORDER BY encoding`)
    .pluck()
    .all() as string[];
}

function restoreAll(encodingOf: (block: number) => Restored): void {
  const rowids = harness.service.db.prepare(`SELECT rowid FROM runs`).pluck().all() as number[];
  for (const rowid of rowids) restoreBlocks(harness.service.db, rowid, encodingOf);
}

describe('explorer pages and details whatever the blocks their texts come from', () => {
  let located: Page[][];
  let locatedDetails: RequestOutput<'examples:detail'>[];

  it("show each side's criteria values as the file gave them, and the input shown", () => {
    expect(encodings()).toEqual([LOCATED]);
    located = allPages();
    const byId = (list: Example[]) => new Map(list.map((e) => [e.id, e]));
    const ref = byId(runs.ref);
    const cand = byId(runs.cand);
    const criteria = ['label', 'mixed', 'passed', 'score', 'sometimes'];
    const rows = located.flat().flatMap((page) => page.rows);
    expect(rows.length).toBeGreaterThan(COUNT);
    for (const row of rows) {
      const r = ref.get(row.example_id);
      const c = cand.get(row.example_id);
      expect(Object.keys(row.values).sort()).toEqual(criteria);
      for (const criterion of criteria)
        expect(row.values[criterion]).toEqual({
          reference: r?.fields[criterion] ?? null,
          candidate: c?.fields[criterion] ?? null,
        });
      expect([row.input, row.input_unavailable]).toEqual([(r ?? c)!.input, null]);
    }
    locatedDetails = details();
    const side = (e: Example | undefined) =>
      e && { input: e.input, output: e.output, fields: e.fields, unavailable: null };
    expect(locatedDetails).toMatchObject(
      DETAILED.map((id) => ({
        reference: side(runs.ref.find((e) => e.id === id)) ?? null,
        candidate: side(runs.cand.find((e) => e.id === id)) ?? null,
      })),
    );
  });

  it.each<[string, (block: number) => Restored]>([
    ['json', () => 'json'],
    ['deflate', () => 'deflate'],
    [SECTIONS, () => SECTIONS],
    ['a mix of all four', (block) => (['keep', 'json', 'deflate', SECTIONS] as const)[block % 4]!],
  ])('are the same from %s blocks', (_, encodingOf) => {
    restoreAll(encodingOf);
    expect(allPages()).toEqual(located);
    expect(details()).toEqual(locatedDetails);
  });

  it("say why a row shows no input when the reference's cannot be read and the inputs differ", () => {
    locateRunThen(harness.service.db, 'ref', 'missing');
    const cand = new Map(runs.cand.map((e) => [e.id, e]));
    const ref = new Map(runs.ref.map((e) => [e.id, e]));
    const rows = allPages()[0]!.flatMap((page) => page.rows);
    expect(rows).toHaveLength(COUNT);
    for (const row of rows) {
      const r = ref.get(row.example_id);
      const c = cand.get(row.example_id);
      const shown = c && (!r || r.input === c.input) ? c.input : null;
      expect([row.input, row.input_unavailable]).toEqual(
        shown === null ? ['', 'source-missing'] : [shown, null],
      );
    }
    expect(rows.filter((row) => row.input_mismatch).length).toBeGreaterThan(10);
  });
});
