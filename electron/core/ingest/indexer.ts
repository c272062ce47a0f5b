import path from 'node:path';
import type { JobProgress } from '../../../shared/jobs';
import type { Db } from '../db/open';
import type { WorkerPool } from '../jobs/pool';
import { statUnit, type UnitStat } from './identity';
import type { ImportTask, ImportTaskResult } from './import-task';
import { importerVersions } from './importers';
import { scanPaths } from './scan';
import { IndexStore } from './store';
import type { SourceUnit } from './types';

export interface IndexStats {
  sources: { scanned: number; imported: number; unchanged: number; failed: number };
  runs: number;
  examples: number;
  problems: { path: string; message: string }[];
}

export interface IndexOptions {
  db: Db;
  pool: WorkerPool;
  paths: string[];
  signal: AbortSignal;
  progress?: (progress: JobProgress) => void;
  /** How many units may be parsing at once (the pool bounds real parallelism). */
  inFlight?: number;
}

interface SourceRow {
  path: string;
  size: number | null;
  mtime_ms: number | null;
  importer: string | null;
  importer_version: string | null;
  status: string;
}

function isUnchanged(row: SourceRow | undefined, unit: SourceUnit): boolean {
  if (!row || row.status === 'missing') return false;
  if (row.importer && importerVersions[row.importer] !== row.importer_version) return false;
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
  const detail = error instanceof Error ? error.message : String(error);
  return `the indexing worker stopped while reading this file (${detail}); the other files were indexed. This is a bug in Pairwise: please report it with the file if you can.`;
}

function unknownIdentity(unit: SourceUnit): { stat: UnitStat | null; sha256: null } {
  try {
    return { stat: statUnit(unit), sha256: null };
  } catch {
    return { stat: null, sha256: null };
  }
}

function folderOf(unitPath: string, roots: string[]): string | null {
  return roots.find((root) => unitPath === root || unitPath.startsWith(root + path.sep)) ?? null;
}

/**
 * One index pass over some paths: scan, skip what is unchanged, parse the rest in workers,
 * write each unit in its own transaction as it arrives. Sources under a scanned folder that
 * were not seen again are marked missing (their runs stay, flagged), never deleted.
 */
export async function indexPaths(options: IndexOptions): Promise<IndexStats> {
  const { db, pool, signal } = options;
  const roots = options.paths.map((p) => path.resolve(p));
  const store = new IndexStore(db);
  const stats: IndexStats = {
    sources: { scanned: 0, imported: 0, unchanged: 0, failed: 0 },
    runs: 0,
    examples: 0,
    problems: [],
  };
  const report = (phase: string, detail: string | null, total: number | null) =>
    options.progress?.({ phase, done: stats.sources.scanned, total, detail, bytes: bytesDone });
  let bytesDone = 0;

  report('scanning', roots[0] ?? null, null);
  const scan = await scanPaths(roots, { signal });
  const units = scan.units;
  for (const problem of scan.problems) {
    stats.sources.failed++;
    stats.problems.push(problem);
    store.writeFailed(
      {
        path: problem.path,
        folder: folderOf(problem.path, roots),
        stat: null,
        sha256: null,
        importer: null,
        importerVersion: null,
      },
      problem.message,
    );
  }

  const known = new Map<string, SourceRow>();
  for (const row of db
    .prepare(`SELECT path, size, mtime_ms, importer, importer_version, status FROM sources`)
    .all() as SourceRow[]) {
    known.set(row.path, row);
  }

  const seen = new Set<string>(scan.problems.map((p) => p.path));
  const work: SourceUnit[] = [];
  for (const unit of units) {
    seen.add(unit.path);
    if (isUnchanged(known.get(unit.path), unit)) {
      stats.sources.scanned++;
      stats.sources.unchanged++;
    } else {
      work.push(unit);
    }
  }
  const total = units.length;
  report('indexing', null, total);

  const handle = (unit: SourceUnit, result: ImportTaskResult) => {
    stats.sources.scanned++;
    bytesDone += result.stat?.size ?? 0;
    const record = {
      path: unit.path,
      folder: folderOf(unit.path, roots),
      stat: result.stat,
      sha256: result.status === 'skipped' ? null : result.sha256,
      importer: result.status === 'skipped' ? null : result.importer,
      importerVersion:
        result.status !== 'skipped' && result.importer
          ? (importerVersions[result.importer] ?? null)
          : null,
    };
    if (result.status === 'imported') {
      const written = store.writeImported(record, result.runs, result.prepared);
      stats.sources.imported++;
      stats.runs += written.runs;
      stats.examples += written.examples;
    } else if (result.status === 'failed') {
      stats.sources.failed++;
      stats.problems.push({ path: unit.path, message: result.message });
      store.writeFailed(record, result.message);
    } else {
      store.writeSkipped(record);
    }
    report('indexing', unit.path, total);
  };

  const limit = options.inFlight ?? 4;
  let next = 0;
  const lane = async () => {
    while (next < work.length && !signal.aborted) {
      const unit = work[next++]!;
      const task: ImportTask = { unit };
      let result: ImportTaskResult;
      try {
        result = await pool.run<ImportTaskResult>(task, { signal });
      } catch (error) {
        if (signal.aborted) return;
        // A worker that died on one file (out of memory, a native crash) fails that file only.
        result = {
          status: 'failed',
          importer: null,
          message: workerDied(error),
          ...unknownIdentity(unit),
        };
      }
      if (signal.aborted) return;
      handle(unit, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, work.length) }, lane));
  if (signal.aborted) return stats;

  for (const row of known.values()) {
    if (!seen.has(row.path) && row.status !== 'missing' && folderOf(row.path, roots))
      store.forget(row.path);
  }
  stats.problems.sort((a, b) => a.path.localeCompare(b.path));
  report('done', null, total);
  return stats;
}
