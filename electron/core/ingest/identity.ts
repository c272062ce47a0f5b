import fs from 'node:fs';
import type { SourceUnit } from './types';

export interface UnitStat {
  size: number;
  mtimeMs: number;
}

/** Size and newest mtime over every file of a unit: cheap enough to check a whole library. */
export function statUnit(unit: SourceUnit): UnitStat {
  let size = 0;
  let mtimeMs = 0;
  for (const file of unit.files) {
    const stat = fs.statSync(file);
    size += stat.size;
    mtimeMs = Math.max(mtimeMs, stat.mtimeMs);
  }
  return { size, mtimeMs };
}
