import type { Db } from '../db/open';
import { NotFoundError } from '../errors';
import { decodePair, EMPTY_PAIR, type PairArrays, type StoredPairArrays } from './pair-arrays';
import { readPairFile, type PairSections } from './pair-files';

/** A small least-recently-used map: what was asked for last is dropped last. */
export class Lru<V> {
  private readonly items = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string, make: () => V): V {
    const found = this.items.get(key);
    if (found !== undefined || this.items.has(key)) {
      this.items.delete(key);
      this.items.set(key, found as V);
      return found as V;
    }
    const made = make();
    this.items.set(key, made);
    if (this.items.size > this.capacity) this.items.delete(this.items.keys().next().value!);
    return made;
  }

  get size(): number {
    return this.items.size;
  }
}

/**
 * A decoded pair as the explorer holds it while a person looks at it: its arrays, and what was
 * derived from them (sort orders, filters' matches, searches' matches) for the next page.
 */
export interface PairView extends PairArrays {
  reportId: number;
  memo: Lru<unknown>;
}

/** Pairs decoded at once per library: each is tens of MB at a million examples. */
const PAIRS_KEPT = 4;
/** Sort orders and filter results kept per pair: a few MB each at a million examples. */
const DERIVED_KEPT = 16;

const cache = new WeakMap<Db, Lru<PairView>>();

const NOT_CACHED = 'That comparison is no longer cached: run it again.';

type PairRow = Omit<StoredPairArrays, keyof PairSections> & { file: string; bytes: number };

/**
 * The pair's row and its file, read in one go. A missing or damaged file answers as a dropped
 * report does: never rows that are not the pair's.
 */
function readPair(db: Db, reportId: number, pair: number): PairArrays {
  const row = db
    .prepare(
      `SELECT rows, criteria, ref_run_rowid, ref_first, ref_last, cand_run_rowid, cand_first,
         cand_last, file, bytes, counts
       FROM pair_arrays WHERE report_id = ? AND pair = ?`,
    )
    .get(reportId, pair) as PairRow | undefined;
  if (!row) return EMPTY_PAIR;
  const sections = readPairFile(db, row.file, row.bytes);
  if (!sections) throw new NotFoundError(NOT_CACHED);
  try {
    return decodePair({ ...row, ...sections });
  } catch {
    throw new NotFoundError(NOT_CACHED);
  }
}

/**
 * The arrays of one pair of a cached report, decoded once and kept for the next requests. A
 * saved report never changes, and one saved again under the same key is a new row (a row id
 * may be reused, so its save time is part of the key too).
 */
export function openPair(db: Db, reportKey: string, pair: number): PairView {
  const report = db.prepare(`SELECT id, created_at FROM reports WHERE key = ?`).get(reportKey) as
    { id: number; created_at: string } | undefined;
  if (!report) throw new NotFoundError(NOT_CACHED);
  let pairs = cache.get(db);
  if (!pairs) {
    pairs = new Lru<PairView>(PAIRS_KEPT);
    cache.set(db, pairs);
  }
  return pairs.get(JSON.stringify([report.id, report.created_at, reportKey, pair]), () => ({
    ...readPair(db, report.id, pair),
    reportId: report.id,
    memo: new Lru<unknown>(DERIVED_KEPT),
  }));
}

/** A value derived from a pair (a sort order, a filter's matches), made once while it is kept. */
export function derived<T>(view: PairView, key: string, make: () => T): T {
  return view.memo.get(key, make) as T;
}
