import Database from 'better-sqlite3';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResult, PairRows, PairSide } from '../../../electron/core/compare/compute';
import { ftsQuery, planning } from '../../../electron/core/compare/filters';
import { countExamples, exampleDetail, pageExamples } from '../../../electron/core/compare/pager';
import { writeReport } from '../../../electron/core/compare/store';
import { examplesCsv } from '../../../electron/core/export/csv';
import type { CriterionClass, Report } from '../../../shared/compare/types';
import type { ParsedInput } from '../../../shared/contract';
import { writeMechlensRun } from '../../fixtures/formats';
import { makeService, type Harness } from '../../fixtures/service';

type Filter = ParsedInput<'examples:page'>['filter'];
type Sort = ParsedInput<'examples:page'>['sort'];

const WORDS = ['apple', 'berry', 'cherry', 'delta', 'echo', 'fig'];
const CRITERIA = ['refused', 'score'];
const CLASSES: CriterionClass[] = [
  'improved',
  'regressed',
  'unchanged',
  'changed',
  'not_comparable',
];

/** Deterministic texts of two to four words, so every search term matches some and not others. */
function text(seed: number): string {
  const words: string[] = [];
  for (let k = 0; k < 2 + (seed % 3); k++) words.push(WORDS[(seed * 7 + k * 5 + (seed >> 2)) % 6]!);
  return words.join(' ');
}

interface StoredExample {
  rowid: number;
  tokens: Set<string>;
}

interface Library {
  ref: Map<string, StoredExample>;
  cand: Map<string, StoredExample>;
  refSide: PairSide;
  candSide: PairSide;
  ids: string[];
}

let harness: Harness;
let library: Library;

function indexLibrary(): Promise<Library> {
  const root = path.join(harness.dir, 'lib');
  const spec = (from: number, to: number, salt: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => {
      const n = from + i;
      return {
        id: `ex-${String(n).padStart(3, '0')}`,
        input: text(n * 3 + salt),
        output: text(n * 11 + salt * 5),
        fields: { refused: n % 2 === 0, score: n % 4 },
      };
    });
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: spec(1, 24, 0) });
  writeMechlensRun(root, {
    id: 'cand',
    name: 'candidate',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: spec(5, 30, 1),
  });
  return harness.service.index([root]).then(() => {
    const side = (runId: string) => {
      const rows = harness.service.db
        .prepare(
          `SELECT e.rowid, e.example_id, e.input, e.output, r.rowid AS run_rowid FROM examples e
           JOIN runs r ON r.rowid = e.run_rowid WHERE r.id = ?`,
        )
        .all(runId) as {
        rowid: number;
        example_id: string;
        input: string;
        output: string;
        run_rowid: number;
      }[];
      const map = new Map(
        rows.map((r) => [
          r.example_id,
          { rowid: r.rowid, tokens: new Set(`${r.input} ${r.output}`.toLowerCase().split(' ')) },
        ]),
      );
      const rowids = rows.map((r) => r.rowid);
      const pairSide: PairSide = {
        runRowid: rows[0]!.run_rowid,
        firstRowid: Math.min(...rowids),
        lastRowid: Math.max(...rowids),
      };
      return { map, pairSide };
    };
    const ref = side('ref');
    const cand = side('cand');
    const ids = [...new Set([...ref.map.keys(), ...cand.map.keys()])].sort();
    return { ref: ref.map, cand: cand.map, refSide: ref.pairSide, candSide: cand.pairSide, ids };
  });
}

/** What the generated pair rows say about one example: the model the pager is checked against. */
interface ModelRow {
  id: string;
  side: 'both' | 'reference' | 'candidate';
  input_mismatch: boolean;
  output_changed: boolean;
  behavior_changed: boolean;
  classes: Record<string, CriterionClass>;
}

const flagsArb = fc.array(
  fc.record({
    input_mismatch: fc.boolean(),
    output_changed: fc.boolean(),
    behavior_changed: fc.boolean(),
    classes: fc.tuple(fc.constantFrom(...CLASSES), fc.constantFrom(...CLASSES)),
  }),
  { minLength: 30, maxLength: 30 },
);

function modelRows(flags: FlagsValue): ModelRow[] {
  return library.ids.map((id, k) => {
    const f = flags[k]!;
    const inRef = library.ref.has(id);
    const inCand = library.cand.has(id);
    return {
      id,
      side: inRef && inCand ? 'both' : inRef ? 'reference' : 'candidate',
      input_mismatch: f.input_mismatch,
      output_changed: f.output_changed,
      behavior_changed: f.behavior_changed,
      classes: { refused: f.classes[0], score: f.classes[1] },
    };
  });
}
type FlagsValue = {
  input_mismatch: boolean;
  output_changed: boolean;
  behavior_changed: boolean;
  classes: [CriterionClass, CriterionClass];
}[];

function storeModel(key: string, rows: ModelRow[]): Promise<void> {
  return storeModelWith(key, () => Promise.resolve(), rows);
}

function storeModelWith(
  key: string,
  checkpoint: () => Promise<void>,
  rows: ModelRow[] = modelRows(library.ids.map(() => unchangedFlags)),
): Promise<void> {
  const pair: PairRows = {
    pair: 0,
    reference: library.refSide,
    candidate: library.candSide,
    exampleIds: rows.map((r) => r.id),
    refRowids: rows.map((r) => library.ref.get(r.id)?.rowid ?? null),
    candRowids: rows.map((r) => library.cand.get(r.id)?.rowid ?? null),
    side: rows.map((r) => r.side),
    inputMismatch: Uint8Array.from(rows, (r) => (r.input_mismatch ? 1 : 0)),
    outputChanged: Uint8Array.from(rows, (r) => (r.output_changed ? 1 : 0)),
    behaviorChanged: Uint8Array.from(rows, (r) => (r.behavior_changed ? 1 : 0)),
    criteria: CRITERIA,
    classes: CRITERIA.map((c) => rows.map((r) => r.classes[c]!)),
  };
  const report = {
    experiment: { id: 'exp-test' },
    comparisons: [
      {
        reference: { condition: 'reference', run_id: 'ref' },
        candidate: { condition: 'candidate', run_id: 'cand' },
      },
    ],
  } as unknown as Report;
  const result: CompareResult = { report, pairs: [pair] };
  return writeReport(
    harness.service.db,
    key,
    {
      dbPath: '',
      experimentId: 'exp-test',
      reference: 'reference',
      resamples: 10,
      conditions: [],
      referenceReplicates: [],
    },
    result,
    checkpoint,
  );
}

const unchangedFlags = {
  input_mismatch: false,
  output_changed: false,
  behavior_changed: false,
  classes: ['unchanged', 'unchanged'] as [CriterionClass, CriterionClass],
};

function matches(row: ModelRow, f: Filter): boolean {
  if (f.outputChanged !== undefined && row.output_changed !== f.outputChanged) return false;
  if (f.behaviorChanged !== undefined && row.behavior_changed !== f.behaviorChanged) return false;
  if (f.inputMismatch !== undefined && row.input_mismatch !== f.inputMismatch) return false;
  if (f.side && row.side !== f.side) return false;
  if (f.changeClass) {
    const criteria =
      f.criterion === undefined ? CRITERIA : CRITERIA.filter((c) => c === f.criterion);
    if (!criteria.some((c) => row.classes[c] === f.changeClass)) return false;
  }
  if (f.search) {
    const words = f.search.match(/[\p{L}\p{N}\p{Mn}]+/gu)?.map((w) => w.toLowerCase());
    if (!words) return !f.search.trim();
    const has = (e: StoredExample | undefined) => !!e && words.every((w) => e.tokens.has(w));
    if (!has(library.ref.get(row.id)) && !has(library.cand.get(row.id))) return false;
  }
  return true;
}

function sorted(rows: ModelRow[], sort: Sort, descending: boolean): ModelRow[] {
  const value = (r: ModelRow) =>
    sort === 'output_changed'
      ? +r.output_changed
      : sort === 'behavior_changed'
        ? +r.behavior_changed
        : 0;
  const out = [...rows].sort(
    (a, b) => value(a) - value(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return descending ? out.reverse() : out;
}

const filterArb: fc.Arbitrary<Filter> = fc.record(
  {
    criterion: fc.constantFrom('refused', 'score', 'absent'),
    changeClass: fc.constantFrom(...CLASSES),
    outputChanged: fc.boolean(),
    behaviorChanged: fc.boolean(),
    side: fc.constantFrom('both' as const, 'reference' as const, 'candidate' as const),
    inputMismatch: fc.boolean(),
    search: fc.constantFrom(
      'apple',
      'Cherry fig',
      'delta echo apple',
      'nothing',
      '***',
      '  ',
      'fig',
    ),
  },
  { requiredKeys: [] },
);

beforeAll(async () => {
  harness = makeService();
  library = await indexLibrary();
}, 60_000);

afterAll(async () => {
  await harness.close();
  planning.denseShare = 0.05;
  planning.fewSearch = 20_000;
  planning.denseSearchShare = 0.2;
});

describe('explorer search', () => {
  it('turns what a person types into all-words FTS syntax, never operators', () => {
    expect(ftsQuery("can't help")).toBe('"can" "t" "help"');
    expect(ftsQuery('" OR NEAR(x')).toBe('"OR" "NEAR" "x"');
    expect(ftsQuery('refusé 42')).toBe('"refusé" "42"');
    expect(ftsQuery('*** ---')).toBeNull();
  });
});

describe('explorer pages and counts against a brute-force filter', () => {
  let reports = 0;

  it('every filter, sort and page size gives exactly the matching rows, classes and count', async () => {
    await fc.assert(
      fc.asyncProperty(
        flagsArb,
        filterArb,
        fc.constantFrom<Sort>('example_id', 'output_changed', 'behavior_changed'),
        fc.boolean(),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        fc.constantFrom('few', 'many', 'dense'),
        async (flags, filter, sort, descending, limit, denseClasses, searchPlan) => {
          // Every plan of each filter must give the same rows: force one of them.
          planning.denseShare = denseClasses ? 0 : 1;
          planning.fewSearch = searchPlan === 'few' ? 1_000_000 : 0;
          planning.denseSearchShare = searchPlan === 'dense' ? -1 : 2;
          const key = `report-${reports++}`;
          const model = modelRows(flags);
          await storeModel(key, model);
          const db = harness.service.db;
          const expected = sorted(
            model.filter((r) => matches(r, filter)),
            sort,
            descending,
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
              descending,
              after,
              limit,
            });
            if (first) expect(page.total).toBe(expected.length);
            first = false;
            seen.push(...page.rows.map((r) => ({ id: r.example_id, classes: r.classes })));
            after = page.next;
          } while (after);
          expect(seen).toEqual(expected.map((r) => ({ id: r.id, classes: r.classes })));
          expect(countExamples(db, { reportKey: key, pair: 0, filter }).total).toBe(
            expected.length,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the CSV export holds one row per matching paired example and criterion, with its class', async () => {
    await fc.assert(
      fc.asyncProperty(flagsArb, filterArb, async (flags, filter) => {
        const key = `report-${reports++}`;
        const model = modelRows(flags);
        await storeModel(key, model);
        const csv = examplesCsv(
          harness.service.db,
          key,
          {
            experiment: { id: 'exp-test' },
            comparisons: [
              {
                reference: { condition: 'reference', run_id: 'ref' },
                candidate: { condition: 'candidate', run_id: 'cand' },
              },
            ],
          } as unknown as Report,
          { filter },
        );
        const lines = csv
          .trimEnd()
          .split('\r\n')
          .slice(1)
          .map((line) => line.split(','));
        const got = lines.map((cells) => `${cells[5]} ${cells[9]} ${cells[12]}`);
        const want = model
          .filter((r) => matches(r, { ...filter, side: 'both' }))
          .flatMap((r) =>
            [...CRITERIA]
              .sort()
              .filter(
                (c) =>
                  !filter.changeClass || filter.criterion === undefined || c === filter.criterion,
              )
              .filter((c) => !filter.changeClass || r.classes[c] === filter.changeClass)
              .map((c) => `${r.id} ${c} ${r.classes[c]}`),
          );
        expect(got).toEqual(want);
      }),
      { numRuns: 60 },
    );
  });

  it("an example's detail has every criterion's class, unchanged where no class row is stored", async () => {
    const model = modelRows(
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
    await storeModel('detail', model);
    const detail = exampleDetail(harness.service.db, {
      reportKey: 'detail',
      pair: 0,
      exampleId: model[0]!.id,
    });
    expect(detail.classes).toEqual({ refused: 'regressed', score: 'unchanged' });
    const stored = harness.service.db
      .prepare(
        `SELECT COUNT(*) AS n FROM pair_classes pc JOIN reports r ON r.id = pc.report_id WHERE r.key = 'detail'`,
      )
      .get() as { n: number };
    expect(stored.n).toBe(model.filter((r) => r.classes.refused === 'regressed').length);
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
      const cancelled = storeModelWith('waits-cancelled', () => {
        waits++;
        if (waits > 3) throw new Error('cancelled');
        return new Promise((resolve) => setTimeout(resolve, 5));
      });
      await expect(cancelled).rejects.toThrow('cancelled');
      waits = 0;
      const saved = storeModelWith('waits', () => {
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
});
