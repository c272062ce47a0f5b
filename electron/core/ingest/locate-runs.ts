import fs from 'node:fs';
import path from 'node:path';
import type { ImportedRun } from '../../../shared/model';
import { TextLocator, type LocatedTexts } from '../texts/locate';
import type { SourceStamp } from '../texts/located';
import type { UnitStat } from './identity';
import type { SourceUnit } from './types';
import { readWholeFile } from './whole-file';

/**
 * Files read whole for locating; a larger one (a big JSON Lines file, read by lines) keeps its
 * texts in json blocks rather than be held in memory at once a second time.
 */
const LOCATE_WHOLE_MAX_BYTES = 128 * 1024 ** 2;

/** A source whose texts may be read back later: the bytes as indexed, and their stamp. */
export interface LocatableFile {
  bytes: Buffer;
  stamp: SourceStamp;
}

/**
 * Whether a unit's texts may be left in its file (docs/architecture.md, "Texts: located, then
 * archived"): one plain local JSON or JSON Lines file, which outlives indexing. Objects fetched
 * from a store are temporary copies, and zips, compressed streams, CSV and multi-file units
 * hold no text literal at a fixed place, so their texts go into json blocks (an lm-eval run
 * whose importer names its one samples file is located there: `namedLocatableFiles`).
 */
export function isLocatable(unit: SourceUnit): boolean {
  return (
    unit.kind === 'file' &&
    unit.source === undefined &&
    ['.json', '.jsonl'].includes(path.extname(unit.path).toLowerCase())
  );
}

/** A unit's file as read for locating: its bytes are valid until `release` (whole-file.ts). */
export interface LentFile extends LocatableFile {
  release(): void;
}

/** The file's bytes and its stamp (from the stat taken before it was read), or null. */
export function locatableFile(unit: SourceUnit, stat: UnitStat): LentFile | null {
  if (!isLocatable(unit) || stat.size > LOCATE_WHOLE_MAX_BYTES) return null;
  const { bytes, release } = readWholeFile(unit.path);
  return { bytes, release, stamp: { path: unit.path, size: stat.size, mtimeMs: stat.mtimeMs } };
}

/**
 * The stat of each file of an lm-eval unit, taken before any is read: the stamps of the
 * samples files its importer may name as holding a run's texts. Null for any other unit, and
 * for objects fetched from a store (temporary copies).
 */
export function statUnitFiles(unit: SourceUnit): Map<string, UnitStat> | null {
  if (unit.kind !== 'lm-eval' || unit.source !== undefined) return null;
  return new Map(
    unit.files.map((file) => {
      const { size, mtimeMs } = fs.statSync(file);
      return [file, { size, mtimeMs }];
    }),
  );
}

/**
 * The file each run's texts may be located in, from the files the importer named (`named`):
 * a plain JSON or JSON Lines file of the unit, stat'ed in `stats` before it was read and no
 * larger than a file read whole. Each is read once, whatever the number of its runs.
 */
export function namedLocatableFiles(
  named: ReadonlyMap<ImportedRun, string>,
  stats: ReadonlyMap<string, UnitStat> | null,
): Map<ImportedRun, LocatableFile> {
  const files = new Map<string, LocatableFile | null>();
  const byRun = new Map<ImportedRun, LocatableFile>();
  for (const [run, file] of named) {
    if (!files.has(file)) {
      const stat = stats?.get(file);
      const plain = ['.json', '.jsonl'].includes(path.extname(file).toLowerCase());
      files.set(
        file,
        stat && plain && stat.size <= LOCATE_WHOLE_MAX_BYTES
          ? {
              bytes: fs.readFileSync(file),
              stamp: { path: path.resolve(file), size: stat.size, mtimeMs: stat.mtimeMs },
            }
          : null,
      );
    }
    const located = files.get(file);
    if (located) byRun.set(run, located);
  }
  return byRun;
}

/**
 * Each run with where its examples' texts lie in its file, when there is a file to look in
 * (`fileOf`): one locator per file, which keeps what it learnt of the file across its runs.
 */
export function locateRuns(
  runs: ImportedRun[],
  fileOf: (run: ImportedRun) => LocatableFile | null | undefined,
): [ImportedRun, { stamp: SourceStamp; located: LocatedTexts[] } | null][] {
  const locators = new Map<LocatableFile, TextLocator>();
  return runs.map((run) => {
    const file = fileOf(run);
    if (!file) return [run, null];
    let locator = locators.get(file);
    if (!locator) locators.set(file, (locator = new TextLocator()));
    return [run, { stamp: file.stamp, located: locator.locate(file.bytes, 0, run.examples) }];
  });
}
