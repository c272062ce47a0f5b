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
  const n = rows.exampleIds.length;
  const sides = new Float64Array(SIDES.length);
  const flags = { output_changed: 0, behavior_changed: 0, input_mismatch: 0 };
  const perClass = rows.criteria.map(() => new Float64Array(CLASSES.length));
  const anyClass = new Float64Array(CLASSES.length);
  const seen = new Uint8Array(CLASSES.length);
  for (let k = 0; k < n; k++) {
    const f = rows.flags[k]!;
    sides[f >> SIDE_SHIFT]!++;
    if (f & FLAG.outputChanged) flags.output_changed++;
    if (f & FLAG.behaviorChanged) flags.behavior_changed++;
    if (f & FLAG.inputMismatch) flags.input_mismatch++;
    seen.fill(0);
    for (let c = 0; c < rows.criteria.length; c++) {
      const code = rows.classes[c]![k]!;
      perClass[c]![code]!++;
      seen[code] = 1;
    }
    for (let code = 0; code < CLASSES.length; code++) anyClass[code]! += seen[code]!;
  }
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
