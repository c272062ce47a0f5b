/**
 * Search on a large pair, in its own child process: how long a first search waits when it is
 * asked right after indexing, with the texts still in their source files (a fresh index of the
 * same folder), and on the benchmark's library, whose texts the archive has compressed by now
 * and whose full-text index is dropped (as a migration that rebuilds it leaves a library); how
 * the service's thread fares while the fill writes from its worker, and how long later
 * searches of new words take once the index is ready.
 */

import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dispatch } from '../../electron/core/dispatch';
import { PairwiseService } from '../../electron/core/service';
import type { RequestOutput } from '../../shared/contract';
import { searchTerms, searchWords } from './generate';
import { longestBlock, percentile, timed } from './measure';

export interface SearchArgs {
  dbPath: string;
  experimentId: string;
  /** The library's folder, indexed afresh for a first search on texts still in their files. */
  sources?: string;
}

/** The first search on a fresh index of the folder, its texts not archived yet. */
export interface FreshFirstSearch {
  seconds: number;
  /** CPU time of the whole process until the first page. */
  cpuSeconds: number;
  /** Of the pair's text blocks, the share still read from the source files when asked. */
  locatedShare: number;
}

export interface TimedSearch {
  word: string;
  kind: 'common' | 'rare';
  /** The first page of rows (limit 200, no count), as the UI asks first. */
  seconds: number;
  /** The process's CPU meanwhile: steadier than the wall on a machine others share. */
  cpuSeconds: number;
  countSeconds: number;
  total: number | null;
}

export interface SearchResult {
  examples: number;
  /** From the service's start (the fill starts with it) to the first search's rows. */
  firstSearchSeconds: number;
  /** From the service's start until every run is searchable. */
  readySeconds: number;
  /** CPU time of the whole process (all threads) meanwhile: the fill's cost on a busy machine. */
  fillCpuSeconds: number;
  /** The longest a fill transaction held the write lock, as the worker measured it. */
  longestHoldSeconds: number;
  transactions: number;
  /** Fill transactions that held the lock longer than 50 ms. */
  longHolds: number;
  /** The longest a write on the service's connection waited for the lock during the fill. */
  longestWriteWaitSeconds: number;
  /** The longest the service's thread was blocked at once during the fill. */
  blockedSeconds: number;
  searches: TimedSearch[];
  fresh?: FreshFirstSearch;
  p50: number;
  p95: number;
  cpuP50: number;
  cpuP95: number;
}

/** The pair as right after its index pass: no word indexed, every run unsearchable. */
function forgetSearch(dbPath: string): number {
  const db = new Database(dbPath);
  try {
    db.exec(`INSERT INTO examples_fts (examples_fts) VALUES ('delete-all')`);
    db.exec(`UPDATE run_search SET indexed_to = 0, done = 0, ready = 0`);
    return db.prepare(`SELECT coalesce(sum(example_count), 0) FROM runs`).pluck().get() as number;
  } finally {
    db.close();
  }
}

type Page = RequestOutput<'examples:page'>;

function locatedShare(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    const { located, total } = db
      .prepare(
        `SELECT coalesce(sum(encoding = 'located'), 0) AS located, count(*) AS total FROM run_texts`,
      )
      .get() as { located: number; total: number };
    return total === 0 ? 0 : located / total;
  } finally {
    db.close();
  }
}

/**
 * Indexes the folder into a new library, compares, closes before the background fill could
 * finish (and so before the archive starts), drops what the fill wrote, and times the first
 * search of a new service, as a user's first search right after indexing.
 */
async function freshFirstSearch(
  sources: string,
  experimentId: string,
  search: string,
): Promise<FreshFirstSearch> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-bench-fresh-'));
  const dbPath = path.join(dir, 'fresh.db');
  try {
    const indexing = new PairwiseService({ dbPath, host: 'cli', version: 'bench' });
    await indexing.index([sources]);
    const { key } = await indexing.compare.run({ experimentId, resamples: 200 });
    await indexing.close();
    forgetSearch(dbPath);
    const share = locatedShare(dbPath);
    const service = new PairwiseService({ dbPath, host: 'cli', version: 'bench' });
    try {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const input = { reportKey: key, pair: 0, filter: { search }, limit: 200 };
      while ((await page(service, input)).searchPending) await sleep(250);
      const used = process.cpuUsage(cpu);
      return {
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: (used.user + used.system) / 1e6,
        locatedShare: share,
      };
    } finally {
      await service.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function page(service: PairwiseService, input: object): Promise<Page> {
  const answer = await dispatch(service, 'examples:page', input);
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as Page;
}

export async function searchPhase(args: SearchArgs): Promise<SearchResult> {
  const fresh = args.sources
    ? await freshFirstSearch(args.sources, args.experimentId, searchTerms[2]!)
    : undefined;
  // The comparison's report, saved before the search is forgotten (the explorer needs it).
  const setup = new PairwiseService({ dbPath: args.dbPath, host: 'cli', version: 'bench' });
  const { key } = await setup.compare.run({ experimentId: args.experimentId, resamples: 200 });
  await setup.close();
  const examples = forgetSearch(args.dbPath);

  const service = new PairwiseService({ dbPath: args.dbPath, host: 'cli', version: 'bench' });
  const started = performance.now();
  const cpu = process.cpuUsage();
  let longestWriteWait = 0;
  let probing = true;
  // A write on the service's own connection every 100 ms: how long it waits for the lock.
  const probe = (async () => {
    while (probing) {
      const t = performance.now();
      service.db.prepare('BEGIN IMMEDIATE').run();
      service.db.prepare('ROLLBACK').run();
      longestWriteWait = Math.max(longestWriteWait, performance.now() - t);
      await sleep(100);
    }
  })();
  const input = { reportKey: key, pair: 0, filter: { search: searchTerms[2]! }, limit: 200 };
  const fill = await longestBlock(async () => {
    // As the UI does: ask, and while the answer is "preparing search", ask again.
    while ((await page(service, input)).searchPending) await sleep(250);
    const first = (performance.now() - started) / 1000;
    await service.search.idle();
    return first;
  });
  const readySeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  probing = false;
  await probe;

  const searches: TimedSearch[] = [];
  for (const kind of ['common', 'rare'] as const)
    for (const word of searchWords[kind]) {
      const search = { reportKey: key, pair: 0, filter: { search: word } };
      const cpu = process.cpuUsage();
      const rows = await timed(() => page(service, { ...search, limit: 200, countTotal: false }));
      const used = process.cpuUsage(cpu);
      const counted = await timed(() => dispatch(service, 'examples:count', search));
      const total = counted.value.ok
        ? (counted.value.value as RequestOutput<'examples:count'>).total
        : null;
      searches.push({
        word,
        kind,
        seconds: rows.seconds,
        cpuSeconds: (used.user + used.system) / 1e6,
        countSeconds: counted.seconds,
        total,
      });
    }
  const stats = service.search.stats;
  await service.close();
  const times = searches.map((s) => s.seconds);
  const cpus = searches.map((s) => s.cpuSeconds);
  return {
    examples,
    firstSearchSeconds: fill.value,
    fresh,
    readySeconds,
    fillCpuSeconds: (used.user + used.system) / 1e6,
    longestHoldSeconds: stats.longestHoldMs / 1000,
    transactions: stats.transactions,
    longHolds: stats.longHolds,
    longestWriteWaitSeconds: longestWriteWait / 1000,
    blockedSeconds: fill.blockedSeconds,
    searches,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    cpuP50: percentile(cpus, 0.5),
    cpuP95: percentile(cpus, 0.95),
  };
}
