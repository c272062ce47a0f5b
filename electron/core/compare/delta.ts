import { isErrored } from '../../../shared/compare/pairing';
import { numericValue, passValue, type CriterionRule } from '../../../shared/compare/criteria';
import type { CompareExample } from '../../../shared/compare/types';

/**
 * How far one example moved under one criterion: candidate − reference, read the way the
 * criterion's classes read its values (a pass/fail outcome as 1/0, a number or boolean as
 * itself). NaN when there is no difference to speak of: a side missing or errored, or a value
 * that is not a number (a category, a text).
 */
export function exampleDelta(
  rule: CriterionRule,
  reference: CompareExample | undefined,
  candidate: CompareExample | undefined,
): number {
  if (!reference || !candidate || isErrored(reference) || isErrored(candidate)) return NaN;
  const read = rule.kind === 'pass_fail' ? passValue : numericValue;
  const x = read(reference.fields[rule.field]);
  const y = read(candidate.fields[rule.field]);
  if (x === null || y === null) return NaN;
  // Two finite values can still differ by more than a double holds; the sort needs a number.
  return Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, y - x));
}
