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
import { knownNarrow } from '../pair-arrays';
import { everyRowValued, TAG, type CellCache, type FieldCells } from './cells';
import { mirrorCriterion } from './mirror';
import { twinOf, type ColumnPairing } from './pairing';

const UNCHANGED = classCode('unchanged');
const IMPROVED = classCode('improved');
const REGRESSED = classCode('regressed');
const CHANGED = classCode('changed');
const NOT_COMPARABLE = classCode('not_comparable');
const MAX = Number.MAX_VALUE;
const { null: NULL_TAG, boolean: BOOLEAN, string: STRING, detail: DETAIL } = TAG;

/** One table's share of the field tallies, and the fields it holds a list or object in. */
interface TableTallies {
  tallies: Map<string, FieldTally>;
  nonScalar: Set<string>;
}

/**
 * Kept with their table (a compare worker keeps its tables from one comparison to the next): a
 * tally counts values, booleans and pass/fail words, whatever ids the strings were interned under.
 */
const keptTallies = new WeakMap<RunTable, TableTallies>();

function tableTallies(table: RunTable, cache: CellCache): TableTallies {
  let kept = keptTallies.get(table);
  if (kept) return kept;
  kept = { tallies: new Map(), nonScalar: new Set() };
  for (const { key, kind } of table.fields) {
    let tally = kept.tallies.get(key);
    if (!tally) kept.tallies.set(key, (tally = { values: 0, passFail: 0, booleans: 0 }));
    const cells = cache.of(table, key);
    // A number or boolean column with a value in every row: all values, none of them a word.
    if ((kind === 'number' || kind === 'boolean') && everyRowValued(cells)) {
      tally.values += table.n;
      if (kind === 'boolean') tally.booleans += table.n;
      continue;
    }
    const { tag, token } = cells;
    const passOf = cache.strings.passOf;
    for (let k = 0; k < table.n; k++) {
      const t = tag[k]!;
      if (t <= NULL_TAG) continue;
      if (t === DETAIL) kept.nonScalar.add(key);
      tally.values++;
      if (t === BOOLEAN) tally.booleans++;
      else if (t === STRING && !Number.isNaN(passOf[token[k]!])) tally.passFail++;
    }
  }
  keptTallies.set(table, kept);
  return kept;
}

/** criterionRules over both runs' columns: each field's tally read off its cells. */
export function columnRules(
  reference: { run: CompareRun; table: RunTable },
  candidate: { run: CompareRun; table: RunTable },
  cache: CellCache,
): CriterionRule[] {
  const seen = new Map<string, FieldTally>();
  const nonScalar = new Set<string>();
  for (const { table } of [reference, candidate]) {
    const own = tableTallies(table, cache);
    for (const [key, tally] of own.tallies) {
      const sum = seen.get(key);
      if (!sum) seen.set(key, { ...tally });
      else {
        sum.values += tally.values;
        sum.passFail += tally.passFail;
        sum.booleans += tally.booleans;
      }
    }
    for (const key of own.nonScalar) nonScalar.add(key);
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
  readA: Float64Array,
  readB: Float64Array,
) {
  const { n, ref, cand, refErrored, candErrored } = p;
  const classes = new Uint8Array(n);
  const deltas = new Float64Array(n);
  const judged = rule.kind !== 'categorical';
  const lowerBetter = rule.direction === 'lower_is_better';
  const { tag: tagA, token: tokenA } = a;
  const { tag: tagB, token: tokenB } = b;
  // The same ids on both sides: position k is index k in both tables.
  const same = ref === cand;
  // Whether every difference is exact as a float and none is -0, for the save (pair-arrays.ts).
  let narrow = true;
  for (let k = 0; k < n; k++) {
    const i = same ? k : ref[k]!;
    const j = same ? k : cand[k]!;
    if (i < 0 || j < 0 || refErrored[i] || candErrored[j]) {
      classes[k] = NOT_COMPARABLE;
      deltas[k] = NaN;
      continue;
    }
    const x = readA[i]!;
    const y = readB[j]!;
    // Two finite values can still differ by more than a double holds; the sort needs a number.
    const d = x === x && y === y ? y - x : NaN;
    const delta = d > MAX ? MAX : d < -MAX ? -MAX : d;
    deltas[k] = delta;
    if (
      narrow &&
      delta === delta &&
      (Math.fround(delta) !== delta || (delta === 0 && 1 / delta < 0))
    )
      narrow = false;
    const ta = tagA[i]!;
    const tb = tagB[j]!;
    if (ta <= NULL_TAG || tb <= NULL_TAG) classes[k] = NOT_COMPARABLE;
    else if (judged && x === x && y === y) {
      if (x === y) classes[k] = UNCHANGED;
      else classes[k] = (lowerBetter ? y < x : y > x) ? IMPROVED : REGRESSED;
    } else classes[k] = ta === tb && tokenA[i] === tokenB[j] ? UNCHANGED : CHANGED;
  }
  return { classes, deltas: narrow ? knownNarrow(deltas) : deltas };
}

/** At most two distinct numeric values on matched examples, errored ones included. */
function isBinary(
  rule: CriterionRule,
  p: ColumnPairing,
  a: FieldCells,
  numericA: Float64Array,
  b: FieldCells,
  numericB: Float64Array,
): boolean {
  if (rule.kind === 'pass_fail') return true;
  if (rule.kind !== 'numeric') return false;
  const { n, ref, cand } = p;
  const tagA = a.tag;
  const tagB = b.tag;
  // The first two distinct values seen (NaN: none yet); a third, or a non-number, ends it.
  let first = NaN;
  let second = NaN;
  const level = (v: number): boolean => {
    if (v !== v) return false;
    if (v === first || v === second) return true;
    if (first !== first) first = v;
    else if (second !== second) second = v;
    else return false;
    return true;
  };
  for (let k = 0; k < n; k++) {
    const i = ref[k]!;
    const j = cand[k]!;
    if (i < 0 || j < 0) continue;
    if (tagA[i]! > NULL_TAG && !level(numericA[i]!)) return false;
    if (tagB[j]! > NULL_TAG && !level(numericB[j]!)) return false;
  }
  return first === first;
}

function numericDifferences(p: ColumnPairing, x: Float64Array, y: Float64Array): Float64Array {
  const { n, ref, cand, refErrored, candErrored } = p;
  const out = new Float64Array(p.matched);
  const same = ref === cand;
  let m = 0;
  for (let k = 0; k < n; k++) {
    const i = same ? k : ref[k]!;
    const j = same ? k : cand[k]!;
    if (i < 0 || j < 0 || refErrored[i] || candErrored[j]) continue;
    const a = x[i]!;
    const b = y[j]!;
    if (a === a && b === b) out[m++] = b - a;
  }
  return out.subarray(0, m);
}

/**
 * Criteria kept with their pairing, which a compare worker keeps from one comparison to the
 * next (pairing.ts): a criterion depends on the pairing and its rule alone. Its arrays are only
 * read; its summary is copied for each report.
 */
const kept = new WeakMap<ColumnPairing, Map<string, CriterionColumns>>();

export function criterionColumns(
  rule: CriterionRule,
  p: ColumnPairing,
  cache: CellCache,
): CriterionColumns {
  let byRule = kept.get(p);
  if (!byRule) kept.set(p, (byRule = new Map()));
  const key = JSON.stringify([rule.field, rule.kind, rule.direction]);
  let columns = byRule.get(key);
  if (!columns) {
    const twin = twinOf(p);
    const mirrored = twin && kept.get(twin)?.get(key);
    columns = mirrored
      ? mirrorCriterion(mirrored, p, ...readings(rule, p, cache))
      : criterionAnew(rule, p, cache);
    byRule.set(key, columns);
  }
  return { ...columns, summary: structuredClone(columns.summary) };
}

/** Each side's values as the criterion compares them: pass/fail as 1/0, else numbers. */
function readings(
  rule: CriterionRule,
  p: ColumnPairing,
  cache: CellCache,
): [Float64Array, Float64Array] {
  const reading = rule.kind === 'pass_fail' ? 'pass' : 'numeric';
  return [
    cache.read(p.reference, rule.field, reading),
    cache.read(p.candidate, rule.field, reading),
  ];
}

function criterionAnew(rule: CriterionRule, p: ColumnPairing, cache: CellCache): CriterionColumns {
  const a = cache.of(p.reference, rule.field);
  const b = cache.of(p.candidate, rule.field);
  const field = rule.field;
  const numericA = cache.read(p.reference, field, 'numeric');
  const numericB = cache.read(p.candidate, field, 'numeric');
  const { classes, deltas } = classify(rule, p, a, b, ...readings(rule, p, cache));
  const counts = new Float64Array(CLASSES.length);
  for (let k = 0; k < p.n; k++) counts[classes[k]!]!++;
  const improved = counts[IMPROVED]!;
  const regressed = counts[REGRESSED]!;
  const binary = isBinary(rule, p, a, numericA, b, numericB);
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
          ? wilcoxonSignedRank(numericDifferences(p, numericA, numericB))
          : null,
    },
  };
}
