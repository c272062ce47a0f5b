import type { Db } from '../db/open';
import { NotFoundError } from '../errors';
import { EMPTY_PAIR, type PairArrays } from './pair-arrays';
import { decodePair, type PairMeta, type PairSource } from './pair-decode';
import { openPairFile } from './pair-files';

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

  /** Whether the key is held, without making it the last asked for. */
  has(key: string): boolean {
    return this.items.has(key);
  }

  /** Forgets the items `stale` picks. */
  drop(stale: (value: V) => boolean): void {
    for (const [key, value] of this.items) if (stale(value)) this.items.delete(key);
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
  reportKey: string;
  /** The report's row id and its pairs' file names: which save of the key this pair is from. */
  saved: string;
  memo: Lru<unknown>;
}

/** Pairs decoded at once per library: each is tens of MB at a million examples. */
const PAIRS_KEPT = 4;
/** Sort orders and filter results kept per pair: a few MB each at a million examples. */
const DERIVED_KEPT = 16;

const cache = new WeakMap<Db, Lru<PairView>>();

const NOT_CACHED = 'That comparison is no longer cached: run it again.';

type PairRow = PairMeta & { file: string; bytes: number };

/**
 * The pair's row, and its file opened by its header: its arrays are read as a query first uses
 * them. A missing or damaged file answers as a dropped report does, then or at a later read:
 * never rows that are not the pair's.
 */
function readPair(db: Db, reportId: number, pair: number): PairArrays {
  const row = db
    .prepare(
      `SELECT rows, criteria, ref_run_rowid, ref_first, ref_last, cand_run_rowid, cand_first,
         cand_last, numbered_ids, file, bytes, counts
       FROM pair_arrays WHERE report_id = ? AND pair = ?`,
    )
    .get(reportId, pair) as PairRow | undefined;
  if (!row) return { ...EMPTY_PAIR };
  const file = openPairFile(db, row.file, row.bytes);
  if (!file) throw new NotFoundError(NOT_CACHED);
  const present = (data: Buffer | null) => {
    if (!data) throw new NotFoundError(NOT_CACHED);
    return data;
  };
  const source: PairSource = {
    length: (section) => file.lengths[section],
    read: (section) => present(file.read(section)),
    readRanges: (section, ranges) => present(file.readRanges(section, ranges)),
    scan: (section, chunk, overlap, visit) => {
      if (!file.scan(section, chunk, overlap, visit)) throw new NotFoundError(NOT_CACHED);
    },
    readEach: (section, ranges, chunk, visit) => {
      if (!file.readEach(section, ranges, chunk, visit)) throw new NotFoundError(NOT_CACHED);
    },
  };
  try {
    return decodePair(row, source);
  } catch {
    throw new NotFoundError(NOT_CACHED);
  }
}

/**
 * The arrays of one pair of a cached report, opened once and kept for the next requests. A
 * saved report never changes, and one saved again under the same key is a new row (a row id
 * may be reused, so the names of its pair files, new with every save, are part of the key
 * too); the views of the key's earlier
 * saves (or of a deleted report) are dropped then, as nothing can ask for them again.
 */
export function openPair(db: Db, reportKey: string, pair: number): PairView {
  // Not the save time: it lies after the report's JSON in the row (~8 MB at a million examples),
  // whose overflow pages SQLite walks to reach it (~60 ms CPU on a pair's first query). A save's
  // pair files get names of their own, so the row id and those names tell one save from another.
  const report = db
    .prepare(
      `SELECT id, (SELECT group_concat(file ORDER BY pair) FROM pair_arrays WHERE report_id = r.id)
         AS files
       FROM reports r WHERE key = ?`,
    )
    .get(reportKey) as { id: number; files: string | null } | undefined;
  let pairs = cache.get(db);
  if (!pairs) {
    pairs = new Lru<PairView>(PAIRS_KEPT);
    cache.set(db, pairs);
  }
  const saved = report ? JSON.stringify([report.id, report.files]) : null;
  pairs.drop((view) => view.reportKey === reportKey && view.saved !== saved);
  if (!report || !saved) throw new NotFoundError(NOT_CACHED);
  return pairs.get(JSON.stringify([saved, reportKey, pair]), () =>
    Object.assign(readPair(db, report.id, pair), {
      reportId: report.id,
      reportKey,
      saved,
      memo: new Lru<unknown>(DERIVED_KEPT),
    }),
  );
}

/** A value derived from a pair (a sort order, a filter's matches), made once while it is kept. */
export function derived<T>(view: PairView, key: string, make: () => T): T {
  return view.memo.get(key, make) as T;
}
