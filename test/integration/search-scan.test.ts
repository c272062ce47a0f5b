import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countExamples, pageExamples } from '../../electron/core/compare/pager';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { pendingSearch } from '../../electron/core/search/explorer';
import type { SearchIndexer } from '../../electron/core/search/indexer';
import { matchingRowids } from '../../electron/core/search/matches';
import { searchPending } from '../../electron/core/search/readiness';
import { SearchScans } from '../../electron/core/search/scans';
import { KEY_SPAN } from '../../electron/core/texts/keys';
import { requests, type ParsedInput } from '../../shared/contract';
import { runCli } from '../fixtures/cli';
import { indexAndCompare } from '../fixtures/compared';
import { writeMechlensRun, type ExampleSpec } from '../fixtures/formats';
import { runRowid, tick, unsearchable } from '../fixtures/search';
import { makeService, type Harness } from '../fixtures/service';

const COUNT = 300;
const NOUNS = ['walrus', 'Walnut', 'narwhal', 'SEAL', 'otter_pup', "don't", 'naïve', '東京', 'x2'];

/** Texts long enough to be located in the file, short ones inline, some escaped, some not ASCII. */
function spec(salt: number): ExampleSpec[] {
  return Array.from({ length: COUNT }, (_, i) => ({
    id: `ex-${String(i).padStart(3, '0')}`,
    input: `Question ${i}: tell me about the ${NOUNS[i % NOUNS.length]} and the ${NOUNS[(i * 7) % NOUNS.length]}, please.`,
    output:
      i % 11 === 0
        ? `${NOUNS[(i + salt) % NOUNS.length]}`
        : `An answer about the ${NOUNS[(i + salt * 3) % NOUNS.length]}\n"quoted" ${i % 4 === 0 ? '😀' : 'plain'} words ${i}.`,
    fields: { score: (i + salt) % 3 },
  }));
}

const SEARCHES = [
  'walrus',
  'wal',
  'NAÏVE',
  'otter pup',
  "don't",
  '東京',
  'answer plain',
  'ex-01',
  'zzz',
];

type PageInput = ParsedInput<'examples:page'>;

let harness: Harness;
let reportKey = '';
let root = '';
let runs: number[] = [];

const pageInput = (search: string, extra: object = {}): PageInput =>
  requests['examples:page'].input.parse({
    reportKey,
    pair: 0,
    filter: { search },
    limit: 40,
    ...extra,
  }) as PageInput;

/** Every page of a search, and its count. */
function answers(db: Db, search: string): { rows: unknown[]; total: number } {
  const rows: unknown[] = [];
  let after: string | null = null;
  do {
    const page = pageExamples(db, pageInput(search, { after }));
    rows.push(...page.rows);
    after = page.next;
  } while (after);
  const total = countExamples(db, pageInput(search)).total;
  return { rows, total };
}

/**
 * A connection of its own, as the service's would be right after indexing, whose searches
 * wait for no fill: what it answers comes from the scans alone.
 */
async function scanned(
  searches: string[],
): Promise<Map<string, { rows: unknown[]; total: number }>> {
  const db = openDatabase(harness.service.db.name);
  const scans = new SearchScans(db);
  const indexer = { prioritise: () => undefined, scans } as unknown as SearchIndexer;
  try {
    const found = new Map<string, { rows: unknown[]; total: number }>();
    for (const search of searches) {
      // While its scans run, the fill holds back (`busy`); a finished search leaves none running.
      if (pendingSearch(db, indexer, pageInput(search))) expect(scans.busy()).toBe(true);
      while (pendingSearch(db, indexer, pageInput(search))) await tick();
      expect(scans.busy()).toBe(false);
      expect(searchPending(db, runs)).not.toBeNull();
      found.set(search, answers(db, search));
    }
    return found;
  } finally {
    await scans.close();
    db.close();
  }
}

beforeAll(async () => {
  harness = makeService();
  root = path.join(harness.dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: spec(0) });
  writeMechlensRun(root, {
    id: 'cand',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: spec(1),
  });
  reportKey = await indexAndCompare(harness.service, root, 'exp-test', 20);
  runs = [runRowid(harness.service.db, 'ref'), runRowid(harness.service.db, 'cand')];
}, 60_000);

afterAll(() => harness.close());

describe('a search asked before the fill reached its runs', () => {
  it('answers the same rows, pages and count as the full-text index does after', async () => {
    const { db } = harness.service;
    const located = db
      .prepare(`SELECT count(*) FROM run_texts WHERE encoding = 'located'`)
      .pluck()
      .get() as number;
    expect(located).toBeGreaterThan(0);
    const after = new Map(SEARCHES.map((search) => [search, answers(db, search)]));
    for (const run of runs) unsearchable(db, run);
    const before = await scanned(SEARCHES);
    for (const search of SEARCHES)
      expect({ search, ...before.get(search)! }).toEqual({ search, ...after.get(search)! });
    expect(after.get('walrus')!.total).toBeGreaterThan(0);
  }, 60_000);

  it('finds in a source edited after indexing what the fill then finds: none of its texts', async () => {
    const { db, search } = harness.service;
    const file = db.prepare(`SELECT path FROM runs WHERE id = 'cand'`).pluck().get() as string;
    fs.appendFileSync(file, '\n');
    for (const run of runs) unsearchable(db, run);
    const before = (await scanned(['walrus'])).get('walrus');
    await search.idle();
    expect(searchPending(db, runs)).toBeNull();
    // A new connection: the service's keeps what it answered before the edit.
    const fresh = openDatabase(db.name);
    try {
      expect(before).toEqual(answers(fresh, 'walrus'));
      // The fill found no text of the edited file to index.
      const cand = { first: runs[1]! * KEY_SPAN, last: runs[1]! * KEY_SPAN + COUNT - 1 };
      const [hits] = matchingRowids(fresh, '"walrus"*', [cand], false);
      expect(hits!.some((hit) => hit === 1)).toBe(false);
    } finally {
      fresh.close();
    }
  }, 60_000);

  it('pairwise examples --search answers the same rows and count', async () => {
    const { db, search } = harness.service;
    await search.idle();
    const fresh = openDatabase(db.name);
    const want = new Map<string, { rows: unknown[]; total: number }>();
    try {
      for (const s of ['walrus', "don't"]) want.set(s, answers(fresh, s));
    } finally {
      fresh.close();
    }
    for (const run of runs) unsearchable(db, run);
    for (const [s, { rows, total }] of want) {
      const result = runCli([
        'examples',
        '--db',
        db.name,
        '--json',
        '--search',
        s,
        '--limit',
        '1000',
      ]);
      expect(result.status, result.stderr).toBe(0);
      const page = JSON.parse(result.stdout) as { rows: unknown[]; total: number };
      expect({ s, rows: page.rows, total: page.total }).toEqual({ s, rows, total });
    }
  }, 120_000);

  it("drops a scan's answer once its run's texts change, and scans it again", async () => {
    const db = openDatabase(harness.service.db.name);
    const scans = new SearchScans(db);
    const ref = runs[0]!;
    try {
      unsearchable(harness.service.db, ref);
      while (!scans.answered([ref], ['walrus'])) await tick();
      const first = scans.hits(ref, ['walrus'])!;
      expect(first.some((hit) => hit === 1)).toBe(true);
      // As a re-index that keeps the run's rowid (its id came back from another file) leaves it.
      harness.service.db
        .prepare(`UPDATE runs SET source_sha256 = 'another' WHERE rowid = ?`)
        .run(ref);
      expect(scans.hits(ref, ['walrus'])).toBeNull();
      expect(scans.answered([ref], ['walrus'])).toBe(false);
      while (!scans.answered([ref], ['walrus'])) await tick();
      expect(scans.hits(ref, ['walrus'])).toEqual(first);
    } finally {
      await scans.close();
      db.close();
    }
  }, 60_000);
});
