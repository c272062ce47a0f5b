import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/core/db/open';
import { searchPending } from '../../electron/core/search/readiness';
import { PairwiseService } from '../../electron/core/service';
import type { RequestInput, RequestOutput } from '../../shared/contract';
import { runCli } from '../fixtures/cli';
import { writeMechlensRun, type ExampleSpec } from '../fixtures/formats';
import { callOk } from '../fixtures/service';
import { tempDir } from '../fixtures/tmp';
import { unsearchable } from '../fixtures/search';

type Page = RequestOutput<'examples:page'>;
type PageInput = Omit<RequestInput<'examples:page'>, 'reportKey' | 'pair'>;

const WORDS = ['apple', 'berry', 'cherry', 'delta'];
/** An id longer than any column would be cut to, if the table cut ids. */
const LONG_ID = `ex-long-${'x'.repeat(90)}`;

/** 40 paired examples whose classes, differences, changes and words vary, one id very long. */
function spec(salt: number): ExampleSpec[] {
  return Array.from({ length: 40 }, (_, i) => ({
    id: i === 39 ? LONG_ID : `ex-${String(i + 1).padStart(3, '0')}`,
    input: `${WORDS[i % 4]} question ${i + 1}\nwith a second line${i === 39 ? ' and a long tail of words' : ''}`,
    output: salt && i % 3 === 0 ? `changed ${WORDS[(i + 1) % 4]}` : `answer ${WORDS[i % 4]}`,
    fields: {
      refused: salt ? i % 5 === 0 : i % 2 === 0,
      score: salt ? (i * 7) % 6 : i % 4,
    },
  }));
}

let dir = '';
let db = '';
let cleanup = () => undefined as void;
let reportKey = '';
const expected = new Map<string, Page>();
let expectedCount = 0;

async function page(service: PairwiseService, input: PageInput): Promise<Page> {
  return callOk<Page>(service, 'examples:page', { reportKey, pair: 0, ...input });
}

/** The same filters and sorts the CLI is asked for below, answered by the service. */
const asks: Record<string, PageInput> = {
  first: { limit: 50 },
  refusedImprovedByScore: {
    filter: { criterion: 'refused', changeClass: 'improved' },
    sort: 'delta',
    sortCriterion: 'score',
    descending: true,
    limit: 4,
  },
  searchChanged: { filter: { search: 'cherry', outputChanged: true, side: 'both' }, limit: 50 },
  anyRegressed: {
    filter: { changeClass: 'regressed', behaviorChanged: true },
    sort: 'behavior_changed',
    limit: 50,
  },
  byIdFirst7: { limit: 7 },
  byId14: { limit: 14 },
};

beforeAll(async () => {
  const t = tempDir();
  dir = t.dir;
  cleanup = t.cleanup;
  const root = path.join(dir, 'runs');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: spec(0) });
  writeMechlensRun(root, {
    id: 'cand',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: spec(1),
  });
  db = path.join(dir, 'lib.db');
  const service = new PairwiseService({
    dbPath: db,
    host: 'cli',
    version: '0.0.0-test',
    indexWorkers: 1,
  });
  try {
    await service.index([root]);
    await service.search.idle();
    reportKey = (await service.compare.run({ experimentId: 'exp-test' })).key;
    for (const [name, input] of Object.entries(asks))
      expected.set(name, await page(service, input));
    expectedCount = (
      await callOk<{ total: number }>(service, 'examples:count', {
        reportKey,
        pair: 0,
        filter: { changeClass: 'improved' },
      })
    ).total;
  } finally {
    await service.close();
  }
}, 60_000);

afterAll(() => cleanup());

function examplesJson(args: string[]): Page & { total: number } {
  const result = runCli(['examples', '--db', db, '--json', ...args]);
  expect(result.stderr).not.toMatch(/pairwise:/);
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as Page & { total: number };
}

describe('pairwise examples', () => {
  it('pages exactly as examples:page does for the same filter and sort', () => {
    const cases: [string, string[]][] = [
      ['first', []],
      [
        'refusedImprovedByScore',
        ['--filter', 'refused=improved', '--sort', 'delta:score', '--desc', '--limit', '4'],
      ],
      [
        'searchChanged',
        ['--search', 'cherry', '--output-changed', 'yes', '--side', 'both', '--pair', 'steer'],
      ],
      [
        'anyRegressed',
        ['--filter', 'any=regressed', '--behaviour-changed', 'yes', '--sort', 'behavior_changed'],
      ],
    ];
    for (const [name, args] of cases) {
      const want = expected.get(name)!;
      expect(want.rows.length, name).toBeGreaterThan(0);
      expect(examplesJson(args), name).toEqual({ ...want, total: want.total });
    }
  });

  it('--after continues where the previous page stopped, and still says the total', () => {
    const first = examplesJson(['--limit', '7']);
    expect(first).toEqual(expected.get('byIdFirst7'));
    expect(first.next).not.toBeNull();
    const second = examplesJson(['--limit', '7', '--after', first.next!]);
    const both = expected.get('byId14')!;
    expect([...first.rows, ...second.rows]).toEqual(both.rows);
    expect(second.total).toBe(both.total);
    expect(second.next).toBe(both.next);
  });

  it('--count prints what examples:count answers', () => {
    const result = runCli(['examples', '--db', db, '--count', '--filter', 'any=improved']);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(String(expectedCount));
    expect(examplesJson(['--count', '--filter', 'any=improved'])).toEqual({
      total: expectedCount,
    });
  });

  it('prints a table with each id whole, the criteria as ref → cand (Δ) class, and the next cursor', () => {
    const result = runCli([
      'examples',
      '--db',
      db,
      '--sort',
      'example_id',
      '--desc',
      '--limit',
      '2',
    ]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/experiment exp-test/);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^example\s+refused\s+score\s+output\s+behaviour\s+input$/);
    const long = lines.find((line) => line.startsWith(LONG_ID))!;
    // Example 40: refused false → false, score 3 → 3 (273 % 6), output changed, fields not.
    expect(long).toMatch(/false → false \(0\) unchanged\s+3 → 3 \(0\) unchanged\s+changed\s+same/);
    // Its input on one line, cut to 60 characters.
    expect(long).toMatch(/ delta question 40 with a second line and a long tail of wor…$/);
    expect(result.stdout).toMatch(/2 shown of 40 · exp-test · pair 0: reference → steer/);
    const cursor = /next page: --after '(.+)'$/m.exec(result.stdout)![1]!;
    expect(examplesJson(['--desc', '--limit', '2', '--after', cursor]).rows[0]!.example_id).toBe(
      'ex-038',
    );
    // A full page that is the last one offers no cursor leading nowhere.
    const whole = runCli(['examples', '--db', db, '--limit', '40']);
    expect(whole.stdout).toMatch(/40 shown of 40/);
    expect(whole.stdout).not.toMatch(/next page/);
  });

  it('says what is wrong in one line with exit 2', () => {
    const bad: [string[], RegExp][] = [
      [['--experiment', 'nope'], /No experiment "nope" in this library \(experiments: exp-test\)/],
      [['--pair', '3'], /no pair "3" \(pairs: 0 \(reference → steer\)\)/],
      [['--filter', 'tone=improved'], /no criterion "tone" \(criteria: refused, score/],
      [['--sort', 'delta:tone'], /--sort: this pair has no criterion "tone"/],
      [['--after', 'garbage'], /page cursor was not made by this list/],
    ];
    for (const [args, message] of bad) {
      const result = runCli(['examples', '--db', db, ...args]);
      expect(result.status, args.join(' ')).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(message);
      expect(lines.filter((line) => line.startsWith('pairwise:'))).toHaveLength(1);
    }
    const usage = runCli(['examples', '--db', db, '--filter', 'refused=better']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--filter: expected CRITERION=CLASS/);
  });

  it('waits for search still being prepared rather than failing', () => {
    const handle = openDatabase(db);
    try {
      const run = handle
        .prepare(`SELECT rowid FROM runs WHERE id = 'cand'`)
        .pluck()
        .get() as number;
      unsearchable(handle, run);
      expect(searchPending(handle, [run])).not.toBeNull();
    } finally {
      handle.close();
    }
    expect(
      examplesJson(['--search', 'cherry', '--output-changed', 'yes', '--side', 'both']),
    ).toEqual(expected.get('searchChanged'));
  });
});
