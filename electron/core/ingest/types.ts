import type { ImportedRun } from '../../../shared/model';

/**
 * One thing the scanner found that an importer may turn into runs. Most units are one file;
 * a REPS run is a directory (run.json + events.jsonl[.zst]); an lm-eval result is a
 * results_*.json with its samples_*.jsonl siblings. `files` lists every file whose bytes make
 * up the unit, so its identity (size, mtime, sha256) covers all of them.
 */
export interface SourceUnit {
  /** The path that names the unit in problems and in the sources table (file or directory). */
  path: string;
  kind: 'file' | 'reps-run' | 'lm-eval';
  files: string[];
  /**
   * When `path` and `files` are local copies (objects fetched from a store), the address the
   * unit is stored and reported under; otherwise `path` itself.
   */
  source?: string;
}

/** The name a unit is stored and reported under. */
export function sourcePathOf(unit: SourceUnit): string {
  return unit.source ?? unit.path;
}

export interface ImportContext {
  signal: AbortSignal;
  /** Called now and then with bytes read so far, for progress. */
  onBytes?(bytes: number): void;
  /**
   * The unit's one file as the indexer already read it (to hash it and locate its texts), so a
   * JSON file is not read again; `mtimeMs` is from the stat taken before it was read.
   */
  read?: { bytes: Buffer; mtimeMs: number };
  /**
   * Told of a run whose examples were all read from one file of the unit other than the one
   * `read` holds (an lm-eval samples file), so its texts may be left in that file.
   */
  onTextsFile?(run: ImportedRun, file: string): void;
}

export type ImportOutcome =
  | { status: 'imported'; importer: string; runs: ImportedRun[] }
  /** Not a format we know: skipped silently, never a problem. */
  | { status: 'skipped' };

/**
 * A recognised file that cannot be imported. The message is for a person and says what to
 * do where it can ("line 1,204: unexpected end of JSON — the file may still be being written").
 */
export class ImportProblem extends Error {
  constructor(
    message: string,
    readonly importer: string | null = null,
  ) {
    super(message);
    this.name = 'ImportProblem';
  }
}
