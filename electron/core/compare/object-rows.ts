import { classifyExample, criterionRules } from '../../../shared/compare/criteria';
import { behaviorChanged, outputChanged, pairExamples } from '../../../shared/compare/pairing';
import { classCode, FLAG, NO_ROWID, SIDE_SHIFT, sideCode } from './codes';
import type { PairRows, PairSide } from './compute';
import { exampleDelta } from './delta';
import type { LoadedExample, LoadedRun } from './load';
import { pairIdsOf } from './pair-ids';

function pairSide(loaded: LoadedRun): PairSide {
  let first: number | null = null;
  let last: number | null = null;
  for (const { rowid } of loaded.run.examples) {
    if (first === null || rowid < first) first = rowid;
    if (last === null || rowid > last) last = rowid;
  }
  return { runRowid: loaded.runRowid, firstRowid: first, lastRowid: last };
}

/** A pair's explorer rows from one object per example (the columnar path's oracle, too). */
export function objectPairRows(pair: number, reference: LoadedRun, candidate: LoadedRun): PairRows {
  const pairing = pairExamples(reference.run, candidate.run);
  const rules = criterionRules(reference.run, candidate.run);
  const n = pairing.all.length;
  const rows: PairRows = {
    pair,
    reference: pairSide(reference),
    candidate: pairSide(candidate),
    ids: pairIdsOf(pairing.all),
    refRowids: new Float64Array(n),
    candRowids: new Float64Array(n),
    flags: new Uint8Array(n),
    criteria: rules.map((r) => r.field),
    classes: rules.map(() => new Uint8Array(n)),
    deltas: rules.map(() => new Float64Array(n)),
  };
  for (let k = 0; k < n; k++) {
    const a = pairing.allReference[k];
    const b = pairing.allCandidate[k];
    // Pairing hands back the loaded examples themselves, which carry their rowid.
    rows.refRowids[k] = a ? (a as LoadedExample).rowid : NO_ROWID;
    rows.candRowids[k] = b ? (b as LoadedExample).rowid : NO_ROWID;
    let flags = sideCode(a && b ? 'both' : a ? 'reference' : 'candidate') << SIDE_SHIFT;
    if (a && b) {
      if (a.input !== b.input) flags |= FLAG.inputMismatch;
      if (outputChanged(a, b)) flags |= FLAG.outputChanged;
      if (behaviorChanged(a, b)) flags |= FLAG.behaviorChanged;
    }
    rows.flags[k] = flags;
    rules.forEach((rule, c) => {
      rows.classes[c]![k] = classCode(classifyExample(rule, a, b));
      rows.deltas[c]![k] = exampleDelta(rule, a, b);
    });
  }
  return rows;
}
