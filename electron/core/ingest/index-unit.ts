import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { untilWritable } from '../db/busy';
import { describeDbError } from '../db/errors';
import { CancelledError } from '../jobs/protocol';
import { statUnit, type UnitStat } from './identity';
import { importUnitFile, type ImportTaskResult } from './import-task';
import { importerVersions } from './importers';
import { describeFsError } from './read';
import type { RemoteUnit } from '../sources/s3-objects';
import type { LockTimes } from './lock-clock';
import { IndexStore, type SourceRecord } from './store';
import { STREAM_FROM_BYTES, streamUnit, type StreamOptions } from './stream-unit';
import { sourcePathOf, type SourceUnit } from './types';

/** One unit for an index worker: it reads, parses and stores it through its own connection. */
export interface IndexTask {
  unit: SourceUnit;
  /** The folder the unit was found under (null for a file indexed by itself). */
  folder: string | null;
  dbPath: string;
  /** Where large MechLens files start being read in batches (tests lower it). */
  stream?: StreamOptions;
  /** Set when the unit's files are objects in a store (s3:// addresses): where to fetch them. */
  remote?: RemoteUnit;
}

type UnitOutcome =
  | { status: 'imported'; stat: UnitStat; runs: number; examples: number; writeSeconds: number }
  | { status: 'skipped'; stat: UnitStat | null; writeSeconds: number }
  | { status: 'failed'; stat: UnitStat | null; message: string; writeSeconds: number }
  /** The database cannot take writes (full disk, read-only, damaged): the pass stops. */
  | { status: 'unavailable'; stat: UnitStat | null; message: string; writeSeconds: number };

/** All that comes back to the host: counts, never the parsed run, and its time holding the lock. */
export type IndexUnitResult = UnitOutcome & LockTimes;

/**
 * A worker that stored a file read in batches (a run of up to millions of examples) is let go
 * rather than kept: its heap would hold that run's garbage while another worker stores the next.
 */
export function retiresIndexWorker(result: unknown): boolean {
  const { stat } = result as IndexUnitResult;
  return (stat?.size ?? 0) >= STREAM_FROM_BYTES;
}

export function sourceRecord(
  unit: SourceUnit,
  folder: string | null,
  result: ImportTaskResult,
): SourceRecord {
  const importer = result.status === 'skipped' ? null : result.importer;
  return {
    path: sourcePathOf(unit),
    folder,
    stat: result.stat,
    sha256: result.status === 'skipped' ? null : result.sha256,
    importer,
    importerVersion: importer ? (importerVersions[importer] ?? null) : null,
  };
}

/** A write that waits out other writers until the job is cancelled (see db/busy.ts). */
export function whenWritable<T>(write: () => T, signal: AbortSignal): Promise<T> {
  const cancelled = () => {
    if (signal.aborted) throw new CancelledError();
  };
  cancelled();
  return untilWritable(write, async () => {
    await yieldToEvents();
    cancelled();
  });
}

/**
 * What a write that failed means: a database that cannot take writes (full disk, read-only,
 * damaged) stops the whole pass with its message; anything else fails this unit only.
 */
function storeFailure(
  error: unknown,
  dbPath: string,
  signal: AbortSignal,
  stat: UnitStat | null,
): UnitOutcome {
  if (signal.aborted || error instanceof CancelledError) throw error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) {
    return { status: 'failed', stat, message: describeFsError(error), writeSeconds: 0 };
  }
  const detail = describeDbError(error, dbPath);
  if (detail) return { status: 'unavailable', stat, message: detail, writeSeconds: 0 };
  const message = `could not be stored: ${error instanceof Error ? error.message : String(error)}`;
  return { status: 'failed', stat, message, writeSeconds: 0 };
}

async function storeStreamed(
  task: IndexTask,
  store: IndexStore,
  signal: AbortSignal,
  onBytes: (bytesRead: number) => void,
): Promise<UnitOutcome | null> {
  const start = performance.now();
  const streamed = await streamUnit(
    task.unit,
    task.folder,
    store,
    signal,
    () => whenWritable(() => store.begin(), signal),
    task.stream,
    onBytes,
  );
  if (streamed?.status === 'imported') {
    return { ...streamed, writeSeconds: (performance.now() - start) / 1000 };
  }
  if (!streamed) return null;
  const { stat, sha256, message } = streamed;
  const record = { path: sourcePathOf(task.unit), folder: task.folder, stat, sha256 };
  const importerVersion = importerVersions.mechlens ?? null;
  await whenWritable(
    () => store.writeFailed({ ...record, importer: 'mechlens', importerVersion }, message),
    signal,
  );
  return { status: 'failed', stat, message, writeSeconds: 0 };
}

async function storeWhole(
  task: IndexTask,
  store: IndexStore,
  signal: AbortSignal,
): Promise<UnitOutcome> {
  const result = await importUnitFile({ unit: task.unit }, signal);
  if (signal.aborted) throw new CancelledError();
  const record = sourceRecord(task.unit, task.folder, result);
  const start = performance.now();
  const writeSeconds = () => (performance.now() - start) / 1000;
  if (result.status === 'imported') {
    const written = await whenWritable(
      () => store.writeImported(record, result.runs, result.prepared),
      signal,
    );
    if (written.taken.length > 0) {
      const message = await whenWritable(
        () => store.refuseDuplicates(record, written.taken),
        signal,
      );
      return { status: 'failed', stat: result.stat, message, writeSeconds: writeSeconds() };
    }
    const { runs, examples } = written;
    return { status: 'imported', stat: result.stat, runs, examples, writeSeconds: writeSeconds() };
  }
  if (result.status === 'skipped') {
    await whenWritable(() => store.writeSkipped(record), signal);
    return { status: 'skipped', stat: result.stat, writeSeconds: writeSeconds() };
  }
  await whenWritable(() => store.writeFailed(record, result.message), signal);
  const { stat, message } = result;
  return { status: 'failed', stat, message, writeSeconds: writeSeconds() };
}

/**
 * Reads, parses and stores one unit in one transaction (its old runs go, its new ones come in),
 * so a failing file never rolls back another and a crash mid-file leaves its previous state.
 * Large MechLens files are read and written in batches (stream-unit.ts), the rest whole.
 */
/** `onBytes` hears how far into a large file its batches have been stored. */
export async function indexUnit(
  task: IndexTask,
  store: IndexStore,
  signal: AbortSignal,
  onBytes: (bytesRead: number) => void = () => undefined,
): Promise<IndexUnitResult> {
  let outcome: UnitOutcome;
  try {
    outcome =
      (await storeStreamed(task, store, signal, onBytes)) ??
      (await storeWhole(task, store, signal));
  } catch (error) {
    outcome = storeFailure(error, task.dbPath, signal, statOrNull(task.unit));
  }
  return { ...outcome, ...store.lockTimes() };
}

function statOrNull(unit: SourceUnit): UnitStat | null {
  try {
    return statUnit(unit);
  } catch {
    return null;
  }
}
