import type { ParsedInput } from '../../../shared/contract';
import { CLASSES, FLAG, SIDES, SIDE_SHIFT } from './codes';
import type { PairRows } from './compute';

type Filter = ParsedInput<'examples:page'>['filter'];

/** Count keys: JSON, so a criterion name can hold any character. */
const key = (...parts: string[]) => JSON.stringify(parts);

/**
 * How many rows of a pair match each one-condition filter, counted while the rows are built
 * and stored with them, so a count the explorer asks for most often is a lookup.
 */
export function pairCounts(rows: PairRows): Record<string, number> {
  const n = rows.ids.ends.length;
  // Histograms of small codes, one increment per row; the counts are read off them.
  const byFlags = new Float64Array(256);
  for (let k = 0; k < n; k++) byFlags[rows.flags[k]!]!++;
  const sides = new Float64Array(SIDES.length);
  const flags = { output_changed: 0, behavior_changed: 0, input_mismatch: 0 };
  byFlags.forEach((count, f) => {
    if (count === 0) return;
    sides[f >> SIDE_SHIFT]! += count;
    if (f & FLAG.outputChanged) flags.output_changed += count;
    if (f & FLAG.behaviorChanged) flags.behavior_changed += count;
    if (f & FLAG.inputMismatch) flags.input_mismatch += count;
  });
  // Per row, a bit for each class it has under some criterion: the "any criterion" counts.
  const seen = new Uint8Array(n);
  const perClass = rows.classes.map((classes) => {
    const counts = new Float64Array(CLASSES.length);
    for (let k = 0; k < n; k++) {
      counts[classes[k]!]!++;
      seen[k]! |= 1 << classes[k]!;
    }
    return counts;
  });
  const bySeen = new Float64Array(1 << CLASSES.length);
  for (let k = 0; k < n; k++) bySeen[seen[k]!]!++;
  const anyClass = new Float64Array(CLASSES.length);
  bySeen.forEach((count, bits) => {
    for (let code = 0; code < CLASSES.length; code++)
      if (bits & (1 << code)) anyClass[code]! += count;
  });
  const counts: Record<string, number> = { [key('all')]: n };
  SIDES.forEach((side, code) => (counts[key('side', side)] = sides[code]!));
  for (const [flag, count] of Object.entries(flags)) counts[key(flag)] = count;
  CLASSES.forEach((cls, code) => {
    counts[key('any', cls)] = anyClass[code]!;
    rows.criteria.forEach((criterion, c) => {
      counts[key('class', criterion, cls)] = perClass[c]![code]!;
    });
  });
  return counts;
}

/**
 * The stored count that answers a filter's count exactly, or null when the filter has
 * more than one condition (or a search) and must be counted over the rows. `complement`: the count is
 * all rows minus the stored one (a "false" yes/no filter).
 */
export function countLookup(filter: Filter): { key: string; complement: boolean } | null {
  if (filter.search && filter.search.trim()) return null;
  const lookups: { key: string; complement: boolean }[] = [];
  if (filter.changeClass)
    lookups.push({
      key:
        filter.criterion !== undefined
          ? key('class', filter.criterion, filter.changeClass)
          : key('any', filter.changeClass),
      complement: false,
    });
  const flags = [
    ['output_changed', filter.outputChanged],
    ['behavior_changed', filter.behaviorChanged],
    ['input_mismatch', filter.inputMismatch],
  ] as const;
  for (const [flag, value] of flags)
    if (value !== undefined) lookups.push({ key: key(flag), complement: !value });
  if (filter.side) lookups.push({ key: key('side', filter.side), complement: false });
  if (lookups.length > 1) return null;
  return lookups[0] ?? { key: key('all'), complement: false };
}

export const allKey = key('all');
