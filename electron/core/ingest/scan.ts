import fs from 'node:fs/promises';
import path from 'node:path';
import { SIDECAR_NAME } from './importers/generic';
import {
  isOldSamplesName,
  OLD_RESULTS_NAME,
  resultsDateId,
  samplesFileTask,
} from './importers/lmeval-files';
import { describeFsError } from './read';
import type { SourceUnit } from './types';

/**
 * Finds the units to import under some paths. The scan reads names only, never contents:
 * which importer applies is decided later, by content (importers/index.ts).
 *
 * Problems (an unreadable folder, a broken link to a run file) come back beside the units
 * rather than as thrown errors, so one bad folder never hides the rest of a library.
 */

export interface ScanProblem {
  path: string;
  message: string;
}

export interface ScanResult {
  /** Sorted by path, so two scans of the same tree give the same order. */
  units: SourceUnit[];
  problems: ScanProblem[];
}

export interface ScanOptions {
  signal: AbortSignal;
  /** Stop after this many units and report it as a problem; protects against scanning `/`. */
  maxUnits?: number;
}

export const DEFAULT_MAX_UNITS = 200_000;

const RUN_EXTENSIONS = new Set(['.json', '.jsonl', '.csv', '.eval', '.parquet']);
const EVENTS = ['events.jsonl', 'events.jsonl.zst'];

/** Folders that never hold run files but can hold millions of other files. */
export function skipDirectory(name: string): boolean {
  return name === 'node_modules' || (name.startsWith('.') && name !== '.mechlens');
}

function isRunFileName(name: string): boolean {
  return !name.startsWith('.') && RUN_EXTENSIONS.has(path.extname(name).toLowerCase());
}

/**
 * The units in one folder, from its file names. A REPS run folder is one unit (and nothing in
 * it, including the child's `workspace/`, is looked at further); an lm-eval results file
 * claims its samples files, and samples files without one are a unit of their own; a `pairwise.json` sidecar joins every .jsonl/.csv unit beside it
 * so that editing it re-imports them.
 */
export function groupFolder(
  dir: string,
  names: string[],
): { units: SourceUnit[]; repsRun: boolean } {
  const present = new Set(names);
  const events = EVENTS.find((name) => present.has(name));
  // A run.json without events inside REPS's runs/<condition>/<run>/ layout is a run folder
  // whose stream is missing: the importer then reads the card alone or says what is wrong with
  // it, rather than the folder being passed over in silence.
  const cardOnly =
    present.has('run.json') && path.basename(path.dirname(path.dirname(dir))) === 'runs';
  if (events || cardOnly) {
    const files = events
      ? present.has('run.json')
        ? ['run.json', events]
        : [events]
      : ['run.json'];
    return {
      units: [{ path: dir, kind: 'reps-run', files: files.map((name) => path.join(dir, name)) }],
      repsRun: true,
    };
  }
  const units: SourceUnit[] = [];
  const claimed = new Set<string>([SIDECAR_NAME]);
  const lmEval = (lead: string, files: string[]): void => {
    units.push({
      path: path.join(dir, lead),
      kind: 'lm-eval',
      files: files.map((f) => path.join(dir, f)),
    });
    for (const file of files) claimed.add(file);
  };
  for (const name of names) {
    const dateId = resultsDateId(name);
    if (!dateId) continue;
    const samples = names.filter((other) => samplesFileTask(other)?.dateId === dateId).sort();
    // Only results_* is lm-eval by name; another <stem>_<date>.json is lm-eval when it has samples.
    if (!name.startsWith('results_') && samples.length === 0) continue;
    lmEval(name, [name, ...samples]);
  }
  // lm-eval 0.4.0–0.4.2: results.json beside <model_args>_<task>.jsonl samples.
  if (present.has(OLD_RESULTS_NAME)) {
    lmEval(OLD_RESULTS_NAME, [OLD_RESULTS_NAME, ...names.filter(isOldSamplesName).sort()]);
  }
  // Samples whose results file is missing: one unit per date id (one evaluation).
  const orphans = new Map<string, string[]>();
  for (const name of names) {
    const dateId = samplesFileTask(name)?.dateId;
    if (dateId === undefined || claimed.has(name)) continue;
    orphans.set(dateId, [...(orphans.get(dateId) ?? []), name]);
  }
  for (const files of orphans.values()) {
    files.sort();
    lmEval(files[0]!, files);
  }
  const sidecar = present.has(SIDECAR_NAME) ? path.join(dir, SIDECAR_NAME) : null;
  for (const name of names) {
    if (claimed.has(name) || !isRunFileName(name)) continue;
    const file = path.join(dir, name);
    const withSidecar = sidecar !== null && /\.(jsonl|csv)$/i.test(name);
    units.push({ path: file, kind: 'file', files: withSidecar ? [file, sidecar] : [file] });
  }
  return { units, repsRun: false };
}

interface Listing {
  files: string[];
  dirs: string[];
}

type Fail = (where: string, error: unknown, prefix?: string) => void;

/**
 * A folder's files and the sub-folders worth walking, links followed, each sorted by name.
 * `fail` hears what could not be read (null: nothing is reported).
 */
async function listDirectory(dir: string, fail: Fail | null): Promise<Listing | null> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    fail?.(dir, error);
    return null;
  }
  const listing: Listing = { files: [], dirs: [] };
  for (const entry of entries) {
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const target = await fs.stat(path.join(dir, entry.name));
        isDir = target.isDirectory();
        isFile = target.isFile();
      } catch (error) {
        // Only a dangling link that looks like a run file is worth a person's attention.
        if (isRunFileName(entry.name)) {
          fail?.(path.join(dir, entry.name), error, 'broken symbolic link: ');
        }
        continue;
      }
    }
    if (isFile) listing.files.push(entry.name);
    else if (isDir && !skipDirectory(entry.name)) listing.dirs.push(entry.name);
  }
  // readdir order differs between file systems; which of two links to a file wins must not.
  listing.files.sort();
  listing.dirs.sort();
  return listing;
}

export async function scanPaths(paths: string[], opts: ScanOptions): Promise<ScanResult> {
  const maxUnits = opts.maxUnits ?? DEFAULT_MAX_UNITS;
  const units = new Map<string, SourceUnit>();
  const problems: ScanProblem[] = [];
  // Real paths already visited: symlink loops and two links to one file are seen once.
  const seenDirs = new Set<string>();
  const seenFiles = new Set<string>();
  let capped = false;

  const fail: Fail = (where, error, prefix = '') =>
    problems.push({ path: where, message: prefix + describeFsError(error) });

  const add = async (unit: SourceUnit, root: string): Promise<void> => {
    if (units.has(unit.path)) return;
    if (unit.kind !== 'reps-run') {
      const real = await fs.realpath(unit.path).catch(() => unit.path);
      if (seenFiles.has(real)) return;
      seenFiles.add(real);
    }
    if (units.size >= maxUnits) {
      if (!capped)
        problems.push({
          path: root,
          message: `more than ${maxUnits.toLocaleString('en-US')} run files; the rest were not scanned`,
        });
      capped = true;
      return;
    }
    units.set(unit.path, unit);
  };

  /** `report: false` when only a named file's siblings are wanted, not the folder's problems. */
  const list = (dir: string, report = true) => listDirectory(dir, report ? fail : null);

  const walk = async (root: string): Promise<void> => {
    const stack = [root];
    while (stack.length > 0 && !capped) {
      opts.signal.throwIfAborted();
      const dir = stack.pop()!;
      const real = await fs.realpath(dir).catch(() => null);
      if (real === null || seenDirs.has(real)) continue;
      seenDirs.add(real);
      const listing = await list(dir);
      if (!listing) continue;
      const { units: found, repsRun } = groupFolder(dir, listing.files);
      for (const unit of found) await add(unit, root);
      // Pushed in reverse so that the stack visits sub-folders in name order.
      if (!repsRun) for (const name of listing.dirs.reverse()) stack.push(path.join(dir, name));
    }
  };

  /**
   * A file named directly is a unit even if a scan would skip it, grouped with its siblings.
   */
  const addFile = async (file: string): Promise<void> => {
    const dir = path.dirname(file);
    const listing = await list(dir, false);
    const group = listing ? groupFolder(dir, listing.files).units : [];
    const unit = group.find((u) => u.files.includes(file)) ?? {
      path: file,
      kind: 'file',
      files: [file],
    };
    await add(unit, file);
  };

  for (const given of paths) {
    const root = path.resolve(given);
    try {
      const info = await fs.stat(root);
      if (info.isDirectory()) await walk(root);
      else await addFile(root);
    } catch (error) {
      if (opts.signal.aborted) throw error;
      const missing = (error as { code?: unknown }).code === 'ENOENT';
      if (missing) problems.push({ path: root, message: 'not found: nothing exists at this path' });
      else fail(root, error);
    }
  }
  const byPath = (a: { path: string }, b: { path: string }) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  return { units: [...units.values()].sort(byPath), problems: problems.sort(byPath) };
}
