import type { CriterionClass } from '../../../shared/compare/types';

/**
 * How a pair's per-example values are coded in its stored arrays (pair-arrays.ts). The codes
 * are stored: never reorder them, only append.
 */

/** One byte per example and criterion; 0 is 'unchanged', the class most examples have. */
export const CLASSES: readonly CriterionClass[] = [
  'unchanged',
  'improved',
  'regressed',
  'changed',
  'not_comparable',
];

const classCodes = new Map(CLASSES.map((cls, code) => [cls, code]));

export function classCode(cls: CriterionClass): number {
  return classCodes.get(cls)!;
}

export const SIDES = ['both', 'reference', 'candidate'] as const;
export type Side = (typeof SIDES)[number];

/** One flags byte per example: three yes/no bits, and the side from bit 3 on. */
export const FLAG = {
  inputMismatch: 1,
  outputChanged: 2,
  behaviorChanged: 4,
} as const;
export const SIDE_SHIFT = 3;
export const SIDE_MASK = 0b11 << SIDE_SHIFT;

export function sideOf(flags: number): Side {
  return SIDES[flags >> SIDE_SHIFT]!;
}

export function sideCode(side: Side): number {
  return SIDES.indexOf(side);
}

/** A rowid array's value where that side has no example. */
export const NO_ROWID = -1;
