/**
 * Matching examples across two runs by id, never by position or text (docs/comparison.md,
 * "Examples and criteria"), and the per-example output/behaviour flags.
 */

import { compareStrings, jsonEqual } from './canonical';
import type { JsonValue } from '../model';
import type { CompareExample, CompareRun, Coverage, ExampleChanges } from './types';

export interface RunIndex {
  /** Distinct ids in code-unit order. */
  ids: string[];
  /** The example of each id (the first row of a repeated id), at the same positions. */
  examples: CompareExample[];
}

export interface Pairing {
  reference: RunIndex;
  candidate: RunIndex;
  /** Ids in both runs, sorted, with their examples at the same positions. */
  matched: string[];
  matchedReference: CompareExample[];
  matchedCandidate: CompareExample[];
  onlyReference: string[];
  onlyCandidate: string[];
  inputMismatch: string[];
  /** Every id in either run, sorted, with its example on each side (undefined if absent). */
  all: string[];
  allReference: (CompareExample | undefined)[];
  allCandidate: (CompareExample | undefined)[];
}

// Keyed by the examples array, so a run shared by several comparisons is indexed once.
const indexCache = new WeakMap<CompareExample[], RunIndex>();

export function indexRun(run: CompareRun): RunIndex {
  const cached = indexCache.get(run.examples);
  if (cached) return cached;
  const index = strictlySorted(run.examples)
    ? { ids: run.examples.map((e) => e.id), examples: run.examples }
    : sortedIndex(run.examples);
  indexCache.set(run.examples, index);
  return index;
}

/**
 * Runs loaded from the database usually arrive in id order with no repeated id: checking that
 * is cheaper than a map of a million ids and a sort.
 */
function strictlySorted(examples: CompareExample[]): boolean {
  for (let i = 1; i < examples.length; i++)
    if (!(examples[i - 1]!.id < examples[i]!.id)) return false;
  return true;
}

function sortedIndex(examples: CompareExample[]): RunIndex {
  const byId = new Map<string, CompareExample>();
  for (const example of examples) if (!byId.has(example.id)) byId.set(example.id, example);
  const ids = [...byId.keys()].sort(compareStrings);
  return { ids, examples: ids.map((id) => byId.get(id)!) };
}

// The report and the explorer rows pair the same two runs: pair them once.
const pairingCache = new WeakMap<CompareExample[], WeakMap<CompareExample[], Pairing>>();

/** Read-only: the same pairing is handed to every caller that pairs these two example lists. */
export function pairExamples(reference: CompareRun, candidate: CompareRun): Pairing {
  let byCandidate = pairingCache.get(reference.examples);
  const cached = byCandidate?.get(candidate.examples);
  if (cached) return cached;
  const pairing = pairIndexed(indexRun(reference), indexRun(candidate));
  if (!byCandidate) {
    byCandidate = new WeakMap();
    pairingCache.set(reference.examples, byCandidate);
  }
  byCandidate.set(candidate.examples, pairing);
  return pairing;
}

function pairIndexed(ref: RunIndex, cand: RunIndex): Pairing {
  const p: Pairing = {
    reference: ref,
    candidate: cand,
    matched: [],
    matchedReference: [],
    matchedCandidate: [],
    onlyReference: [],
    onlyCandidate: [],
    inputMismatch: [],
    all: [],
    allReference: [],
    allCandidate: [],
  };
  const push = (id: string, a: CompareExample | undefined, b: CompareExample | undefined) => {
    p.all.push(id);
    p.allReference.push(a);
    p.allCandidate.push(b);
    if (a && b) {
      p.matched.push(id);
      p.matchedReference.push(a);
      p.matchedCandidate.push(b);
      if (a.input !== b.input) p.inputMismatch.push(id);
    } else if (a) {
      p.onlyReference.push(id);
    } else {
      p.onlyCandidate.push(id);
    }
  };
  let i = 0;
  let j = 0;
  // Both id lists are sorted, so one merge pass yields every list already in order.
  while (i < ref.ids.length || j < cand.ids.length) {
    const a = ref.ids[i];
    const b = cand.ids[j];
    if (b === undefined || (a !== undefined && a < b)) {
      push(a!, ref.examples[i], undefined);
      i++;
    } else if (a === undefined || b < a) {
      push(b, undefined, cand.examples[j]);
      j++;
    } else {
      push(a, ref.examples[i], cand.examples[j]);
      i++;
      j++;
    }
  }
  return p;
}

/** An example that errored (or gave no output because it did) is not data to compare. */
export function isErrored(example: CompareExample): boolean {
  return example.error !== null && example.error !== '';
}

export function coverageOf(pairing: Pairing): Coverage {
  const coverage: Coverage = {
    paired: pairing.matched.length,
    only_reference: pairing.onlyReference,
    only_candidate: pairing.onlyCandidate,
    input_mismatch: pairing.inputMismatch,
  };
  const erroredReference = pairing.matched.filter((_, k) =>
    isErrored(pairing.matchedReference[k]!),
  );
  const erroredCandidate = pairing.matched.filter((_, k) =>
    isErrored(pairing.matchedCandidate[k]!),
  );
  if (erroredReference.length > 0 || erroredCandidate.length > 0) {
    coverage.errored_reference = erroredReference;
    coverage.errored_candidate = erroredCandidate;
  }
  return coverage;
}

/** Output text differs: exact string comparison, whitespace and case count. */
export function outputChanged(reference: CompareExample, candidate: CompareExample): boolean {
  return reference.output !== candidate.output;
}

/**
 * Per-example scalar fields differ (canonical equality; a key on one side only is a change).
 * List and object fields are details behind a decision — per-choice log-likelihoods, per-epoch
 * values — not the decision: they drift in late digits with batch size or hardware while every
 * answer and score stays the same, so they are shown but never count as a change of behaviour.
 */
export function behaviorChanged(reference: CompareExample, candidate: CompareExample): boolean {
  const a = reference.fields;
  const b = candidate.fields;
  const differs = (key: string): boolean => {
    const x = a[key];
    const y = b[key];
    if ((x === undefined || isDetail(x)) && (y === undefined || isDetail(y))) return false;
    // A key on one side only is a change, even with a null value.
    if (x === undefined || y === undefined) return true;
    return !jsonEqual(x, y);
  };
  for (const key of Object.keys(a)) if (differs(key)) return true;
  for (const key of Object.keys(b)) if (!(key in a) && differs(key)) return true;
  return false;
}

function isDetail(value: JsonValue | undefined): boolean {
  return typeof value === 'object' && value !== null;
}

export function exampleChanges(pairing: Pairing): ExampleChanges {
  const behavior: string[] = [];
  const output: string[] = [];
  pairing.matched.forEach((id, k) => {
    const a = pairing.matchedReference[k]!;
    const b = pairing.matchedCandidate[k]!;
    if (behaviorChanged(a, b)) behavior.push(id);
    if (outputChanged(a, b)) output.push(id);
  });
  return { behavior_changed: behavior, output_changed: output };
}
