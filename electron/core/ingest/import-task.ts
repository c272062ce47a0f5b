import type { ImportedRun } from '../../../shared/model';
import { sha256FileBytes, sha256Files } from './hash';
import { statUnit, type UnitStat } from './identity';
import { importUnit } from './importers';
import { checkImportedRuns } from './limits';
import { prepareExamples, type PreparedExamples } from './prepare';
import {
  locatableFile,
  locateRuns,
  namedLocatableFiles,
  statUnitFiles,
  type LentFile,
} from './locate-runs';
import { ImportProblem, type SourceUnit } from './types';

export interface ImportTask {
  unit: SourceUnit;
}

export type ImportTaskResult =
  | {
      status: 'imported';
      importer: string;
      runs: ImportedRun[];
      prepared: PreparedExamples[];
      stat: UnitStat;
      sha256: string;
    }
  | { status: 'skipped'; stat: UnitStat | null }
  | {
      status: 'failed';
      importer: string | null;
      message: string;
      stat: UnitStat | null;
      sha256: string | null;
    };

function describeFsError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: Pairwise cannot read this file. Check its permissions.';
    case 'ENOENT':
      return 'the file disappeared while it was being indexed.';
    case 'ELOOP':
      return 'a symbolic link loop: the link points back at itself.';
    case 'EISDIR':
      return 'expected a file but found a folder.';
    default:
      return error.message;
  }
}

/**
 * Reads, hashes and parses one unit. Runs in an index worker, never on a host's main thread.
 * A file that changed while it was read is caught by comparing its stat before and after.
 */
export async function importUnitFile(
  task: ImportTask,
  signal: AbortSignal,
): Promise<ImportTaskResult> {
  const { unit } = task;
  let stat: UnitStat | null = null;
  let sha256: string | null = null;
  /** Its bytes may be a buffer the next file is read into: released once the unit is done. */
  let source: LentFile | null = null;
  try {
    stat = statUnit(unit);
    // A file whose texts may stay in it is read once, for its hash and to locate them; read
    // before the second stat, so a change meanwhile is caught like any other.
    source = locatableFile(unit, stat);
    // A unit of several files (lm-eval) may have a run whose texts all came from one of them:
    // that file is stamped as it was before anything was read, and read for locating before
    // the second stat, like a single file.
    const fileStats = statUnitFiles(unit);
    sha256 = source
      ? sha256FileBytes(unit.files[0]!, source.bytes)
      : await sha256Files(unit.files, signal);
    const named = new Map<ImportedRun, string>();
    const outcome = await importUnit(unit, {
      signal,
      read: source ? { bytes: source.bytes, mtimeMs: stat.mtimeMs } : undefined,
      onTextsFile: (run, file) => named.set(run, file),
    });
    const runFiles = namedLocatableFiles(named, fileStats);
    const after = statUnit(unit);
    if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) {
      return {
        status: 'failed',
        importer: outcome.status === 'imported' ? outcome.importer : null,
        message:
          'the file changed while it was being read; it will be indexed again when it settles.',
        stat,
        sha256,
      };
    }
    if (outcome.status === 'skipped') return { status: 'skipped', stat };
    try {
      checkImportedRuns(outcome.runs);
    } catch (error) {
      throw error instanceof ImportProblem
        ? new ImportProblem(error.message, error.importer ?? outcome.importer)
        : error;
    }
    return {
      status: 'imported',
      importer: outcome.importer,
      runs: outcome.runs,
      prepared: locateRuns(outcome.runs, (run) => source ?? runFiles.get(run)).map(
        ([run, located]) => prepareExamples(run, located),
      ),
      stat,
      sha256,
    };
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof ImportProblem) {
      return { status: 'failed', importer: error.importer, message: error.message, stat, sha256 };
    }
    const message =
      error && typeof error === 'object' && 'code' in error
        ? describeFsError(error as NodeJS.ErrnoException)
        : error instanceof RangeError
          ? 'the file is too large or too deeply nested to read.'
          : `could not be read: ${error instanceof Error ? error.message : String(error)}`;
    return { status: 'failed', importer: null, message, stat, sha256 };
  } finally {
    source?.release();
  }
}
