import type { CriterionClass } from '../../../shared/compare/types';
import type { ParsedInput } from '../../../shared/contract';
import type { PairRows } from './compute';

type Filter = ParsedInput<'examples:page'>['filter'];

/** The classes that have rows in pair_classes: 'unchanged' is the absence of a row. */
export const STORED_CLASSES = ['improved', 'regressed', 'changed', 'not_comparable'] as const;
const ALL_CLASSES: CriterionClass[] = [...STORED_CLASSES, 'unchanged'];

/** pair_counts keys: JSON, so a criterion name can hold any character. */
const key = (...parts: string[]) => JSON.stringify(parts);

/**
 * How many rows of a pair match each one-condition filter, counted while the rows are built,
 * so a count the explorer asks for most often is a lookup instead of a scan.
 */
export function pairCounts(rows: PairRows): Map<string, number> {
  const n = rows.exampleIds.length;
  const counts = new Map<string, number>();
  const add = (k: string, by = 1) => counts.set(k, (counts.get(k) ?? 0) + by);
  add(key('all'), n);
  for (const side of ['both', 'reference', 'candidate']) add(key('side', side), 0);
  for (const flag of ['output_changed', 'behavior_changed', 'input_mismatch']) add(key(flag), 0);
  for (const cls of ALL_CLASSES) {
    add(key('any', cls), 0);
    for (const criterion of rows.criteria) add(key('class', criterion, cls), 0);
  }
  const seen = new Set<CriterionClass>();
  for (let k = 0; k < n; k++) {
    add(key('side', rows.side[k]!));
    if (rows.outputChanged[k]) add(key('output_changed'));
    if (rows.behaviorChanged[k]) add(key('behavior_changed'));
    if (rows.inputMismatch[k]) add(key('input_mismatch'));
    seen.clear();
    rows.criteria.forEach((criterion, c) => {
      const cls = rows.classes[c]![k]!;
      add(key('class', criterion, cls));
      seen.add(cls);
    });
    for (const cls of seen) add(key('any', cls));
  }
  return counts;
}

/**
 * The pair_counts lookup that answers a filter's count exactly, or null when the filter has
 * more than one condition (or a search) and must be counted in SQL. `complement`: the count is
 * all rows minus the stored one (a "false" yes/no filter).
 */
export function countLookup(filter: Filter): { key: string; complement: boolean } | null {
  if (filter.search && filter.search.trim()) return null;
  const lookups: { key: string; complement: boolean }[] = [];
  if (filter.changeClass)
    lookups.push({
      key: filter.criterion
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
