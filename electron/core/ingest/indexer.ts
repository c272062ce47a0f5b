import path from 'node:path';
import type { JobProgress } from '../../../shared/jobs';
import { DatabaseUnavailableError, describeDbError } from '../db/errors';
import type { Db } from '../db/open';
import type { WorkerPool } from '../jobs/pool';
import { WorkerStartError } from '../jobs/protocol';
import { statUnit, type UnitStat } from './identity';
import type { IndexTask, IndexUnitResult } from './index-unit';
import { importerVersions } from './importers';
import type { S3Settings } from '../sources/s3-location';
import { unitEtag, unitSize, type RemoteUnit } from '../sources/s3-objects';
import { resolveRoot, rootOf, scanSources, type SourcesScan } from '../sources/scan-sources';
import { IndexStore } from './store';
import type { SourceUnit } from './types';

export interface IndexStats {
  sources: { scanned: number; imported: number; unchanged: number; failed: number };
  runs: number;
  examples: number;
  problems: { path: string; message: string }[];
  /** Time the index workers spent storing units (lock waits included), summed over workers. */
  writeSeconds: number;
  /**
   * Time the write lock was held by index workers (with the WAL checkpoint SQLite runs as a
   * commit ends): near the wall time, the lock is the limit.
   */
  lockSeconds: number;
  /** Of that, the commits and their checkpoints. */
  commitSeconds: number;
}

/**
 * What a pass needs of the index workers' pool. Warming is optional: a pool that runs its
 * tasks in this thread (tests' stand-ins) has nothing to load.
 */
export type IndexWorkers = Pick<WorkerPool, 'run'> & Partial<Pick<WorkerPool, 'warm'>>;

export interface IndexOptions {
  db: Db;
  pool: IndexWorkers;
  paths: string[];
  signal: AbortSignal;
  progress?: (progress: JobProgress) => void;
  /** How many units may be parsing at once (the pool bounds real parallelism). */
  inFlight?: number;
  /** Where s3:// paths are read from (an S3-compatible endpoint); none: AWS. */
  s3?: S3Settings;
}

interface SourceRow {
  path: string;
  size: number | null;
  mtime_ms: number | null;
  importer: string | null;
  importer_version: string | null;
  status: string;
  etag: string | null;
}

/**
 * A failed source is never unchanged: its failure may have been passing (a full disk, a dead
 * worker, a file caught mid-write), and reading it again is also how `index` can report every
 * source still failed after the pass, not only those that failed for the first time.
 */
function isUnchanged(
  row: SourceRow | undefined,
  unit: SourceUnit,
  remote: RemoteUnit | undefined,
): boolean {
  if (!row || row.status === 'missing' || row.status === 'failed') return false;
  if (row.importer && importerVersions[row.importer] !== row.importer_version) return false;
  // An object's mtime is when it was uploaded, not what it holds: its ETag says that.
  if (remote) return row.etag === unitEtag(remote.objects) && row.size === unitSize(remote.objects);
  try {
    const stat = statUnit(unit);
    return stat.size === row.size && stat.mtimeMs === row.mtime_ms;
  } catch {
    return false;
  }
}

/** What a person should know when the worker reading a file died instead of answering. */
function workerDied(error: unknown): string {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : null;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return 'Pairwise ran out of memory reading this file: it holds more than can be indexed in one piece. Write the run as several smaller files and index again.';
  }
  // A full disk or a read-only library is not a bug: say what it is, and the next pass reads
  // the file again.
  const storage = describeDbError(error, 'the library');
  if (storage) return storage;
  const detail = error instanceof Error ? error.message : String(error);
  return `the indexing worker stopped while reading this file (${detail}); the other files were indexed. This is a bug in Pairwise: please report it with the file if you can.`;
}

function statOrNull(unit: SourceUnit): UnitStat | null {
  try {
    return statUnit(unit);
  } catch {
    return null;
  }
}

/** What the library knew of each source before this pass. */
function knownSources(db: Db): Map<string, SourceRow> {
  const known = new Map<string, SourceRow>();
  for (const row of db
    .prepare(`SELECT path, size, mtime_ms, importer, importer_version, status, etag FROM sources`)
    .all() as SourceRow[]) {
    known.set(row.path, row);
  }
  return known;
}

/** A path the scan could not read is a failed source with its problem. */
function recordScanProblems(
  store: IndexStore,
  problems: IndexStats['problems'],
  roots: string[],
  stats: IndexStats,
): void {
  for (const problem of problems) {
    stats.sources.failed++;
    stats.problems.push(problem);
    store.writeFailed(
      {
        path: problem.path,
        folder: rootOf(problem.path, roots),
        stat: null,
        sha256: null,
        importer: null,
        importerVersion: null,
      },
      problem.message,
    );
  }
}

/**
 * One unit through an index worker. A worker that died on it (out of memory, a native crash)
 * fails that unit only; one that could not start at all fails the pass. Null when the pass
 * was cancelled.
 */
async function runUnit(
  pool: IndexWorkers,
  store: IndexStore,
  task: IndexTask,
  signal: AbortSignal,
  onBytes: (bytes: number) => void,
): Promise<IndexUnitResult | null> {
  try {
    return await pool.run<IndexUnitResult>(task, {
      signal,
      onProgress: (progress) => onBytes(progress.bytes ?? 0),
    });
  } catch (error) {
    if (signal.aborted) return null;
    // No worker could read this file or any other: the pass fails, and no file is blamed.
    if (error instanceof WorkerStartError) throw error;
    const message = workerDied(error);
    const stat = statOrNull(task.unit);
    const record = { path: task.unit.path, folder: task.folder, stat, sha256: null };
    store.writeFailed({ ...record, importer: null, importerVersion: null }, message);
    return { status: 'failed', stat, message, writeSeconds: 0, lockSeconds: 0, commitSeconds: 0 };
  }
}

/** The units to read again, and every source path this pass accounts for. */
function changedUnits(
  scan: SourcesScan,
  known: Map<string, SourceRow>,
): { seen: Set<string>; work: SourceUnit[] } {
  const seen = new Set<string>(scan.problems.map((p) => p.path));
  // A bucket that could not be listed (unreachable, refused) says nothing of its objects.
  for (const row of known.values()) {
    if (rootOf(row.path, scan.unlisted)) seen.add(row.path);
  }
  const work: SourceUnit[] = [];
  for (const unit of scan.units) {
    seen.add(unit.path);
    if (!isUnchanged(known.get(unit.path), unit, scan.remote.get(unit.path))) work.push(unit);
  }
  return { seen, work };
}

function sizeOfUnit(unit: SourceUnit, scan: SourcesScan): number {
  const remote = scan.remote.get(unit.path);
  return remote ? unitSize(remote.objects) : (statOrNull(unit)?.size ?? 0);
}

function emptyStats(): IndexStats {
  return {
    sources: { scanned: 0, imported: 0, unchanged: 0, failed: 0 },
    runs: 0,
    examples: 0,
    problems: [],
    writeSeconds: 0,
    lockSeconds: 0,
    commitSeconds: 0,
  };
}

/**
 * One index pass over some paths: scan, skip what is unchanged, hand the rest to index
 * workers, which parse each unit and write it in its own transaction through their own
 * connections, so parsing and writing overlap and no run crosses to this thread (only counts
 * come back). Sources under a scanned folder that were not seen again are marked missing
 * (their runs stay, flagged), never deleted.
 */
export async function indexPaths(options: IndexOptions): Promise<IndexStats> {
  const { db, pool, signal } = options;
  const roots = options.paths.map(resolveRoot);
  const store = new IndexStore(db);
  // Each index worker writes its units through its own connection to the same file.
  const dbPath = path.resolve(db.name);
  const stats = emptyStats();
  // Bytes of finished units, plus how far the workers are into the large files they stream.
  let bytesDone = 0;
  let totalBytes: number | null = null;
  const inFile = new Map<string, number>();
  const report = (phase: string, detail: string | null, total: number | null) => {
    let bytes = bytesDone;
    for (const read of inFile.values()) bytes += read;
    const { scanned, failed } = stats.sources;
    options.progress?.({ phase, done: scanned, total, detail, bytes, totalBytes, failed });
  };

  const limit = options.inFlight ?? 4;
  // The workers load while the folders are scanned. A pass that finds nothing changed has
  // started them for nothing, but the pool keeps them for the next pass.
  pool.warm?.(limit);
  report('scanning', roots[0] ?? null, null);
  const scan = await scanSources(roots, options.s3 ?? {}, signal);
  const units = scan.units;
  recordScanProblems(store, scan.problems, roots, stats);
  const known = knownSources(db);

  const { seen, work } = changedUnits(scan, known);
  stats.sources.scanned += units.length - work.length;
  stats.sources.unchanged += units.length - work.length;
  const total = units.length;
  totalBytes = work.reduce((sum, unit) => sum + sizeOfUnit(unit, scan), 0);
  report('indexing', null, total);

  const handle = (unit: SourceUnit, result: IndexUnitResult) => {
    stats.sources.scanned++;
    inFile.delete(unit.path);
    bytesDone += result.stat?.size ?? 0;
    stats.writeSeconds += result.writeSeconds;
    stats.lockSeconds += result.lockSeconds;
    stats.commitSeconds += result.commitSeconds;
    if (result.status === 'imported') {
      stats.sources.imported++;
      stats.runs += result.runs;
      stats.examples += result.examples;
    } else if (result.status === 'unavailable') {
      throw new DatabaseUnavailableError(result.message);
    } else if (result.status === 'failed') {
      stats.sources.failed++;
      stats.problems.push({ path: unit.path, message: result.message });
    }
    report('indexing', unit.path, total);
  };

  let next = 0;
  const lane = async () => {
    while (next < work.length && !signal.aborted) {
      const unit = work[next++]!;
      const remote = scan.remote.get(unit.path);
      const task: IndexTask = { unit, folder: rootOf(unit.path, roots), dbPath, remote };
      const result = await runUnit(pool, store, task, signal, (bytes) => {
        inFile.set(unit.path, bytes);
        report('indexing', unit.path, total);
      });
      if (result === null || signal.aborted) return;
      handle(unit, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, work.length) }, lane));
  if (signal.aborted) return stats;

  for (const row of known.values()) {
    if (!seen.has(row.path) && row.status !== 'missing' && rootOf(row.path, roots))
      store.forget(row.path);
  }
  stats.problems.sort((a, b) => a.path.localeCompare(b.path));
  report('done', null, total);
  return stats;
}
