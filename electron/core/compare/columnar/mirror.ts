import { mcnemarExact } from '../../../../shared/compare/stats/mcnemar';
import { classCode, SIDE_MASK, SIDE_SHIFT, sideCode } from '../codes';
import type { CriterionColumns } from './criteria';
import type { ColumnPairing } from './pairing';

/**
 * The same two runs paired with their roles swapped, from the pairing kept for the other order:
 * positions follow the ids either way, and every per-example test of a pairing (same input, same
 * output, behaviour changed) asks whether the two sides are equal, which does not depend on
 * which side is which. Only the side of an example present on one side swaps.
 */
export function mirrorPairing(p: ColumnPairing): ColumnPairing {
  const reference = sideCode('reference');
  const candidate = sideCode('candidate');
  const swapped = new Uint8Array(256);
  for (let f = 0; f < 256; f++) {
    const side = (f & SIDE_MASK) >> SIDE_SHIFT;
    const other = side === reference ? candidate : side === candidate ? reference : side;
    swapped[f] = (f & ~SIDE_MASK) | (other << SIDE_SHIFT);
  }
  const flags = new Uint8Array(p.n);
  for (let k = 0; k < p.n; k++) flags[k] = swapped[p.flags[k]!]!;
  return {
    reference: p.candidate,
    candidate: p.reference,
    n: p.n,
    ref: p.cand,
    cand: p.ref,
    matched: p.matched,
    onlyReference: p.onlyCandidate,
    onlyCandidate: p.onlyReference,
    flags,
    inputMismatch: p.inputMismatch,
    refErrored: p.candErrored,
    candErrored: p.refErrored,
  };
}

const IMPROVED = classCode('improved');
const REGRESSED = classCode('regressed');

/**
 * A criterion over a mirrored pairing from the same criterion (same field, kind and direction)
 * over the pairing it mirrors, as the criterion would compute it: improved and regressed swap
 * (two different numbers are ordered the other way), the rest of the classes stay. A difference
 * x − y is exactly −(y − x) in floating point (rounding to nearest is symmetric, and so is the
 * clamp to the largest double), except for zeros, whose sign depends on the operands' order: a
 * zero is computed again from the readings. NaN is copied, never negated, so its bits stay.
 * Wilcoxon's statistic is the smaller of the two rank sums and its p-value depends only on the
 * ranks, so it stays; McNemar's test is computed from the swapped counts.
 */
export function mirrorCriterion(
  c: CriterionColumns,
  p: ColumnPairing,
  readRef: Float64Array,
  readCand: Float64Array,
): CriterionColumns {
  const { n, ref, cand } = p;
  const classes = new Uint8Array(n);
  const deltas = new Float64Array(n);
  const from = c.classes;
  const fromDeltas = c.deltas;
  for (let k = 0; k < n; k++) {
    const cls = from[k]!;
    classes[k] = cls === IMPROVED ? REGRESSED : cls === REGRESSED ? IMPROVED : cls;
    const d = fromDeltas[k]!;
    deltas[k] = d === 0 ? readCand[cand[k]!]! - readRef[ref[k]!]! : d === d ? -d : d;
  }
  const { improved, regressed, mcnemar, wilcoxon } = c.summary;
  return {
    classes,
    deltas,
    summary: {
      ...c.summary,
      improved: regressed,
      regressed: improved,
      mcnemar: mcnemar && {
        improved: regressed,
        regressed: improved,
        p_value: mcnemarExact(regressed, improved),
      },
      wilcoxon: wilcoxon && { ...wilcoxon },
    },
  };
}
