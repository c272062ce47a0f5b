import {
  rulesFromTallies,
  type CriterionRule,
  type FieldTally,
} from '../../../../shared/compare/criteria';
import { mcnemarExact } from '../../../../shared/compare/stats/mcnemar';
import { wilcoxonSignedRank } from '../../../../shared/compare/stats/wilcoxon';
import type { CompareRun, CriterionSummary } from '../../../../shared/compare/types';
import type { RunTable } from '../../columns/table';
import { CLASSES, classCode } from '../codes';
import { reader, TAG, type CellCache, type FieldCells, type Reader } from './cells';
import type { ColumnPairing } from './pairing';

const UNCHANGED = classCode('unchanged');
const IMPROVED = classCode('improved');
const REGRESSED = classCode('regressed');
const CHANGED = classCode('changed');
const NOT_COMPARABLE = classCode('not_comparable');
const { null: NULL_TAG, boolean: BOOLEAN, string: STRING, detail: DETAIL } = TAG;

/** criterionRules over both runs' columns: each field's tally read off its cells. */
export function columnRules(
  reference: { run: CompareRun; table: RunTable },
  candidate: { run: CompareRun; table: RunTable },
  cache: CellCache,
): CriterionRule[] {
  const seen = new Map<string, FieldTally>();
  const nonScalar = new Set<string>();
  for (const { table } of [reference, candidate]) {
    for (const { key } of table.fields) {
      let tally = seen.get(key);
      if (!tally) seen.set(key, (tally = { values: 0, passFail: 0, booleans: 0 }));
      const cells = cache.of(table, key);
      const pass = reader('pass', cache.strings);
      for (let k = 0; k < table.n; k++) {
        const tag = cells.tag[k]!;
        if (tag <= NULL_TAG) continue;
        if (tag === DETAIL) nonScalar.add(key);
        tally.values++;
        if (tag === BOOLEAN) tally.booleans++;
        else if (tag === STRING && pass(cells, k) === pass(cells, k)) tally.passFail++;
      }
    }
  }
  return rulesFromTallies(reference.run, candidate.run, seen, nonScalar);
}

/** One criterion over a pair: every position's class code and difference (delta.ts). */
export interface CriterionColumns {
  classes: Uint8Array;
  deltas: Float64Array;
  summary: CriterionSummary;
}

/**
 * classifyExample and exampleDelta at every position: not comparable where a side is missing,
 * errored or without a value; by the criterion's direction where both sides read as numbers;
 * else changed or unchanged by canonical equality.
 */
function classify(
  rule: CriterionRule,
  p: ColumnPairing,
  a: FieldCells,
  b: FieldCells,
  read: Reader,
) {
  const classes = new Uint8Array(p.n);
  const deltas = new Float64Array(p.n);
  const judged = rule.kind !== 'categorical';
  const lowerBetter = rule.direction === 'lower_is_better';
  for (let k = 0; k < p.n; k++) {
    const i = p.ref[k]!;
    const j = p.cand[k]!;
    if (i < 0 || j < 0 || p.refErrored[i] || p.candErrored[j]) {
      classes[k] = NOT_COMPARABLE;
      deltas[k] = NaN;
      continue;
    }
    const x = read(a, i);
    const y = read(b, j);
    // Two finite values can still differ by more than a double holds; the sort needs a number.
    deltas[k] =
      x === x && y === y ? Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, y - x)) : NaN;
    const ta = a.tag[i]!;
    const tb = b.tag[j]!;
    if (ta <= NULL_TAG || tb <= NULL_TAG) classes[k] = NOT_COMPARABLE;
    else if (judged && x === x && y === y) {
      if (x === y) classes[k] = UNCHANGED;
      else classes[k] = (lowerBetter ? y < x : y > x) ? IMPROVED : REGRESSED;
    } else classes[k] = ta === tb && a.token[i] === b.token[j] ? UNCHANGED : CHANGED;
  }
  return { classes, deltas };
}

/** At most two distinct numeric values on matched examples, errored ones included. */
function isBinary(
  rule: CriterionRule,
  p: ColumnPairing,
  a: FieldCells,
  b: FieldCells,
  numericAt: Reader,
): boolean {
  if (rule.kind === 'pass_fail') return true;
  if (rule.kind !== 'numeric') return false;
  const levels: number[] = [];
  const add = (cells: FieldCells, index: number): boolean => {
    if (cells.tag[index]! <= NULL_TAG) return true;
    const v = numericAt(cells, index);
    if (v !== v) return false;
    if (!levels.includes(v)) levels.push(v);
    return levels.length <= 2;
  };
  for (let k = 0; k < p.n; k++) {
    const i = p.ref[k]!;
    const j = p.cand[k]!;
    if (i < 0 || j < 0) continue;
    if (!add(a, i) || !add(b, j)) return false;
  }
  return levels.length > 0;
}

function numericDifferences(
  p: ColumnPairing,
  a: FieldCells,
  b: FieldCells,
  numericAt: Reader,
): Float64Array {
  const out = new Float64Array(p.matched);
  let m = 0;
  for (let k = 0; k < p.n; k++) {
    const i = p.ref[k]!;
    const j = p.cand[k]!;
    if (i < 0 || j < 0 || p.refErrored[i] || p.candErrored[j]) continue;
    const x = numericAt(a, i);
    const y = numericAt(b, j);
    if (x === x && y === y) out[m++] = y - x;
  }
  return out.subarray(0, m);
}

export function criterionColumns(
  rule: CriterionRule,
  p: ColumnPairing,
  cache: CellCache,
): CriterionColumns {
  const a = cache.of(p.reference, rule.field);
  const b = cache.of(p.candidate, rule.field);
  const numeric = reader('numeric', cache.strings);
  const read = rule.kind === 'pass_fail' ? reader('pass', cache.strings) : numeric;
  const { classes, deltas } = classify(rule, p, a, b, read);
  const counts = new Float64Array(CLASSES.length);
  for (let k = 0; k < p.n; k++) counts[classes[k]!]!++;
  const improved = counts[IMPROVED]!;
  const regressed = counts[REGRESSED]!;
  const binary = isBinary(rule, p, a, b, numeric);
  return {
    classes,
    deltas,
    summary: {
      field: rule.field,
      direction: rule.direction,
      kind: rule.kind,
      improved,
      regressed,
      unchanged: counts[UNCHANGED]!,
      changed: counts[CHANGED]!,
      not_comparable: counts[NOT_COMPARABLE]!,
      mcnemar: binary ? { improved, regressed, p_value: mcnemarExact(improved, regressed) } : null,
      wilcoxon:
        rule.kind === 'numeric' && !binary
          ? wilcoxonSignedRank(numericDifferences(p, a, b, numeric))
          : null,
    },
  };
}
