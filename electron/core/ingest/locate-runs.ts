import fs from 'node:fs';
import path from 'node:path';
import type { ImportedRun } from '../../../shared/model';
import { TextLocator, type LocatedTexts } from '../texts/locate';
import type { SourceStamp } from '../texts/located';
import type { UnitStat } from './identity';
import type { SourceUnit } from './types';

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
 * hold no text literal at a fixed place, so their texts go into json blocks.
 */
export function isLocatable(unit: SourceUnit): boolean {
  return (
    unit.kind === 'file' &&
    unit.source === undefined &&
    ['.json', '.jsonl'].includes(path.extname(unit.path).toLowerCase())
  );
}

/** The file's bytes and its stamp (from the stat taken before it was read), or null. */
export function locatableFile(unit: SourceUnit, stat: UnitStat): LocatableFile | null {
  if (!isLocatable(unit) || stat.size > LOCATE_WHOLE_MAX_BYTES) return null;
  return {
    bytes: fs.readFileSync(unit.path),
    stamp: { path: unit.path, size: stat.size, mtimeMs: stat.mtimeMs },
  };
}

/** Each run with where its examples' texts lie in the file, when there is a file to look in. */
export function locateRuns(
  runs: ImportedRun[],
  file: LocatableFile | null,
): [ImportedRun, { stamp: SourceStamp; located: LocatedTexts[] } | null][] {
  if (!file) return runs.map((run) => [run, null]);
  const locator = new TextLocator();
  return runs.map((run) => [
    run,
    { stamp: file.stamp, located: locator.locate(file.bytes, 0, run.examples) },
  ]);
}
