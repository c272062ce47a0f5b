/**
 * Per-criterion change classes (docs/comparison.md, "Examples and criteria"): every per-example
 * field is a criterion, counted over every id in either run. Direction comes from metric
 * definitions both runs agree on; undeclared pass/fail outcomes default to pass = better; text and
 * categories only ever "change", they never improve.
 */

import type { Direction, JsonValue } from '../model';
import { compareStrings, jsonEqual } from './canonical';
import { isErrored, type Pairing } from './pairing';
import { mcnemarExact } from './stats/mcnemar';
import { wilcoxonSignedRank } from './stats/wilcoxon';
import type {
  CompareExample,
  CompareRun,
  CriterionClass,
  CriterionKind,
  CriterionSummary,
} from './types';

export interface CriterionRule {
  field: string;
  direction: Direction | null;
  kind: CriterionKind;
}

/**
 * Exact-match style outcomes: Martian's pass/fail and Inspect's C(orrect)/I(ncorrect) grades.
 * Words match case-insensitively; the one-letter grades only in capitals, as Inspect writes them.
 */
const PASS_WORDS = new Set(['pass', 'passed', 'correct']);
const FAIL_WORDS = new Set(['fail', 'failed', 'incorrect']);

/** Boolean fields with these names are pass/fail outcomes even when no metric gives a direction. */
const PASS_FAIL_NAME =
  /^(?:is_)?(?:exact_match|em|match|matches|matched|pass|passed|correct|success|successful)$/i;

/** 1 for a pass, 0 for a fail, null for anything else. */
export function passValue(value: JsonValue | undefined): 0 | 1 | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return null;
  if (value === 'C') return 1;
  if (value === 'I') return 0;
  const word = value.toLowerCase();
  return PASS_WORDS.has(word) ? 1 : FAIL_WORDS.has(word) ? 0 : null;
}

/** Numbers as themselves and booleans as 0/1; anything else is not numeric. */
export function numericValue(value: JsonValue | undefined): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return null;
}

/** The direction a run declares for a field: only when its definitions naming it agree. */
function declaredDirection(run: CompareRun, field: string): Direction | null {
  let found: Direction | null = null;
  for (const definition of Object.values(run.metricDefinitions)) {
    if (definition.example_field !== field || !definition.direction) continue;
    if (found !== null && found !== definition.direction) return null;
    found = definition.direction;
  }
  return found;
}

function fieldLastSegment(field: string): string {
  return field.split(/[./]/).pop() ?? field;
}

/** How many non-null values a field holds in two runs, and how many are pass/fail words or booleans. */
export interface FieldTally {
  values: number;
  passFail: number;
  booleans: number;
}

/**
 * The criteria of a pair of runs: one per field name seen in either run, sorted. A field that
 * holds a list or an object in any example (per-choice scores, say) is detail, not a criterion:
 * it has no order to improve in, and its raw numbers drift between otherwise equal runs.
 */
export function criterionRules(reference: CompareRun, candidate: CompareRun): CriterionRule[] {
  const { seen, nonScalar } = tallyFields([reference.examples, candidate.examples]);
  return rulesFromTallies(reference, candidate, seen, nonScalar);
}

/** Each field's tally over some lists of examples, and the fields that hold a list or an object. */
export function tallyFields(lists: Iterable<{ fields: Record<string, JsonValue> }>[]): {
  seen: Map<string, FieldTally>;
  nonScalar: Set<string>;
} {
  const seen = new Map<string, FieldTally>();
  const nonScalar = new Set<string>();
  for (const examples of lists) {
    for (const example of examples) {
      for (const [field, value] of Object.entries(example.fields)) {
        let tally = seen.get(field);
        if (!tally) {
          tally = { values: 0, passFail: 0, booleans: 0 };
          seen.set(field, tally);
        }
        if (value === null || value === undefined) continue;
        if (typeof value === 'object') nonScalar.add(field);
        tally.values++;
        if (typeof value === 'string' && passValue(value) !== null) tally.passFail++;
        if (typeof value === 'boolean') tally.booleans++;
      }
    }
  }
  return { seen, nonScalar };
}

/**
 * Whether a field is a pass/fail outcome when nothing declares a direction for it: every value
 * a pass/fail word, or every value a boolean and the field named like an exact-match outcome.
 */
export function passFailByDefault(
  field: string,
  { values, passFail, booleans }: FieldTally,
): boolean {
  if (values === 0) return false;
  return (
    passFail === values || (booleans === values && PASS_FAIL_NAME.test(fieldLastSegment(field)))
  );
}

/**
 * The criteria from each field's tally over both runs' examples (`seen`: every field either run
 * holds, even only as null) and the fields that hold a list or an object somewhere.
 */
export function rulesFromTallies(
  reference: CompareRun,
  candidate: CompareRun,
  seen: ReadonlyMap<string, FieldTally>,
  nonScalar: ReadonlySet<string>,
): CriterionRule[] {
  const fields = [...seen.keys()].filter((field) => !nonScalar.has(field));
  return fields.sort(compareStrings).map((field) => {
    const tally = seen.get(field)!;
    const a = declaredDirection(reference, field);
    const direction = a !== null && a === declaredDirection(candidate, field) ? a : null;
    const passFailWords = tally.values > 0 && tally.passFail === tally.values;
    // A boolean is an exact-match outcome only by its name, and only when no metric directs it.
    if (passFailWords || (direction === null && passFailByDefault(field, tally))) {
      // A declared direction wins; undeclared pass/fail outcomes default to pass = better.
      return { field, direction: direction ?? 'higher_is_better', kind: 'pass_fail' };
    }
    return { field, direction, kind: direction === null ? 'categorical' : 'numeric' };
  });
}

/**
 * The class of one example under one criterion; `reference`/`candidate` are undefined when
 * the id is missing from that run.
 */
export function classifyExample(
  rule: CriterionRule,
  reference: CompareExample | undefined,
  candidate: CompareExample | undefined,
): CriterionClass {
  if (!reference || !candidate || isErrored(reference) || isErrored(candidate)) {
    return 'not_comparable';
  }
  const a = reference.fields[rule.field];
  const b = candidate.fields[rule.field];
  if (a === null || a === undefined || b === null || b === undefined) return 'not_comparable';
  let x: number | null = null;
  let y: number | null = null;
  if (rule.kind === 'pass_fail') {
    x = passValue(a);
    y = passValue(b);
  } else if (rule.kind === 'numeric') {
    x = numericValue(a);
    y = numericValue(b);
  }
  if (x === null || y === null) return jsonEqual(a, b) ? 'unchanged' : 'changed';
  if (x === y) return 'unchanged';
  const better = rule.direction === 'lower_is_better' ? y < x : y > x;
  return better ? 'improved' : 'regressed';
}

/**
 * Two-valued criteria with a direction get McNemar's exact test on their discordant pairs:
 * pass/fail outcomes, and numeric fields taking at most two distinct values on matched
 * examples (0/1, but also a {2, 4} coding).
 */
function isBinary(rule: CriterionRule, pairing: Pairing): boolean {
  if (rule.kind === 'pass_fail') return true;
  if (rule.kind !== 'numeric') return false;
  const levels = new Set<number>();
  for (const side of [pairing.matchedReference, pairing.matchedCandidate]) {
    for (const example of side) {
      const raw = example.fields[rule.field];
      if (raw === null || raw === undefined) continue;
      const v = numericValue(raw);
      if (v === null) return false;
      levels.add(v);
      if (levels.size > 2) return false;
    }
  }
  return levels.size > 0;
}

/** candidate − reference over matched, non-errored examples where both values are numbers. */
function numericDifferences(rule: CriterionRule, pairing: Pairing): Float64Array {
  const out: number[] = [];
  for (let k = 0; k < pairing.matched.length; k++) {
    const a = pairing.matchedReference[k]!;
    const b = pairing.matchedCandidate[k]!;
    if (isErrored(a) || isErrored(b)) continue;
    const x = numericValue(a.fields[rule.field]);
    const y = numericValue(b.fields[rule.field]);
    if (x !== null && y !== null) out.push(y - x);
  }
  return Float64Array.from(out);
}

const CLASS_INDEX: Record<CriterionClass, number> = {
  improved: 0,
  regressed: 1,
  unchanged: 2,
  changed: 3,
  not_comparable: 4,
};

export function summarizeCriteria(rules: CriterionRule[], pairing: Pairing): CriterionSummary[] {
  const counts = rules.map(() => [0, 0, 0, 0, 0]);
  for (let k = 0; k < pairing.all.length; k++) {
    const a = pairing.allReference[k];
    const b = pairing.allCandidate[k];
    rules.forEach((rule, r) => counts[r]![CLASS_INDEX[classifyExample(rule, a, b)]]!++);
  }
  return rules.map((rule, r) => {
    const binary = isBinary(rule, pairing);
    const [improved, regressed, unchanged, changed, notComparable] = counts[r]! as [
      number,
      number,
      number,
      number,
      number,
    ];
    return {
      field: rule.field,
      direction: rule.direction,
      kind: rule.kind,
      improved,
      regressed,
      unchanged,
      changed,
      not_comparable: notComparable,
      mcnemar: binary ? { improved, regressed, p_value: mcnemarExact(improved, regressed) } : null,
      wilcoxon:
        rule.kind === 'numeric' && !binary
          ? wilcoxonSignedRank(numericDifferences(rule, pairing))
          : null,
    };
  });
}
