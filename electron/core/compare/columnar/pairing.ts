import { HASH_WORDS, type RunTable } from '../../columns/table';
import { FLAG, SIDE_MASK, SIDE_SHIFT, sideCode } from '../codes';
import { everyRowValued, TAG, type CellCache, type FieldCells } from './cells';
import { mirrorPairing } from './mirror';

/**
 * Two runs' examples matched by id, as positions: every id in either run in code-unit order
 * (each table already holds its ids in that order, unique), with the example's index on each
 * side, -1 where that side has none; `ref` and `cand` are one array when both runs hold the
 * same ids.
 */
export interface ColumnPairing {
  reference: RunTable;
  candidate: RunTable;
  n: number;
  ref: Int32Array;
  cand: Int32Array;
  matched: number;
  onlyReference: number;
  onlyCandidate: number;
  /** Per position: side and flags as codes.ts codes them. */
  flags: Uint8Array;
  inputMismatch: number;
  /** Per table index: 1 when that example errored. */
  refErrored: Uint8Array;
  candErrored: Uint8Array;
}

function idOf(table: RunTable, k: number): string {
  return table.joined.slice(k === 0 ? 0 : table.idEnds[k - 1]!, table.idEnds[k]);
}

/** Per table index: 1 when that example errored, and how many did. */
export interface Errored {
  flags: Uint8Array;
  count: number;
}

/** Kept with their table, on which alone they depend. */
const keptErrored = new WeakMap<RunTable, Errored>();

/** isErrored: a non-empty error. */
export function erroredOf(table: RunTable): Errored {
  let errored = keptErrored.get(table);
  if (errored) return errored;
  const flags = new Uint8Array(table.n);
  let count = 0;
  if (table.errors)
    for (let k = 0; k < table.n; k++) {
      const error = table.errors[k];
      if (error !== null && error !== undefined && error !== '') {
        flags[k] = 1;
        count++;
      }
    }
  keptErrored.set(table, (errored = { flags, count }));
  return errored;
}

/** A typed array's bytes, for a native comparison of two whole arrays. */
const bytesOf = (a: Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function sameIds(a: RunTable, b: RunTable): boolean {
  return a.n === b.n && a.joined === b.joined && bytesOf(a.idEnds).equals(bytesOf(b.idEnds));
}

function merge(a: RunTable, b: RunTable): { ref: Int32Array; cand: Int32Array } {
  if (sameIds(a, b)) {
    const ref = new Int32Array(a.n);
    for (let k = 0; k < a.n; k++) ref[k] = k;
    return { ref, cand: ref };
  }
  const ref: number[] = [];
  const cand: number[] = [];
  let i = 0;
  let j = 0;
  let x = a.n > 0 ? idOf(a, 0) : '';
  let y = b.n > 0 ? idOf(b, 0) : '';
  while (i < a.n || j < b.n) {
    if (j >= b.n || (i < a.n && x < y)) {
      ref.push(i);
      cand.push(-1);
      if (++i < a.n) x = idOf(a, i);
    } else if (i >= a.n || y < x) {
      ref.push(-1);
      cand.push(j);
      if (++j < b.n) y = idOf(b, j);
    } else {
      ref.push(i);
      cand.push(j);
      if (++i < a.n) x = idOf(a, i);
      if (++j < b.n) y = idOf(b, j);
    }
  }
  return { ref: Int32Array.from(ref), cand: Int32Array.from(cand) };
}

const { absent: ABSENT, detail: DETAIL } = TAG;
const {
  inputMismatch: INPUT_MISMATCH,
  outputChanged: OUTPUT_CHANGED,
  behaviorChanged: BEHAVIOR_CHANGED,
} = FLAG;
const WORDS = HASH_WORDS;

function hashDiffers(a: Uint32Array, i: number, b: Uint32Array, j: number): boolean {
  const x = i * WORDS;
  const y = j * WORDS;
  for (let w = 0; w < WORDS; w++) if (a[x + w] !== b[y + w]) return true;
  return false;
}

/**
 * Both sides a value of the same scalar kind in every example (a number or boolean column in
 * full): their values differ exactly where their tokens do.
 */
function valuedAlike(p: ColumnPairing, key: string, a: FieldCells, b: FieldCells): boolean {
  const kind = p.reference.fields.find((f) => f.key === key)?.kind;
  return (
    (kind === 'number' || kind === 'boolean') &&
    p.candidate.fields.find((f) => f.key === key)?.kind === kind &&
    everyRowValued(a) &&
    everyRowValued(b)
  );
}

/**
 * behaviorChanged over every field either run holds: a scalar (or null) that differs, or is
 * there on one side only; lists and objects are detail and never count.
 */
function markBehavior(p: ColumnPairing, cache: CellCache): void {
  const keys = new Set([...p.reference.fields, ...p.candidate.fields].map((f) => f.key));
  for (const key of keys) {
    const a = cache.of(p.reference, key);
    const b = cache.of(p.candidate, key);
    const { tag: tagA, token: tokenA } = a;
    const { tag: tagB, token: tokenB } = b;
    const { n, ref, cand, flags } = p;
    // The same ids on both sides: position k is index k in both tables, read without the arrays.
    const same = ref === cand;
    if (same && valuedAlike(p, key, a, b)) {
      for (let k = 0; k < n; k++) if (tokenA[k] !== tokenB[k]) flags[k]! |= BEHAVIOR_CHANGED;
      continue;
    }
    for (let k = 0; k < n; k++) {
      const i = same ? k : ref[k]!;
      const j = same ? k : cand[k]!;
      if (i < 0 || j < 0 || flags[k]! & BEHAVIOR_CHANGED) continue;
      const ta = tagA[i]!;
      const tb = tagB[j]!;
      if (ta === tb && tokenA[i] === tokenB[j]) continue;
      const quietA = ta === ABSENT || ta === DETAIL;
      const quietB = tb === ABSENT || tb === DETAIL;
      if (quietA && quietB) continue;
      flags[k]! |= BEHAVIOR_CHANGED;
    }
  }
}

/**
 * Pairings kept while both their tables live: a compare worker keeps its tables from one
 * comparison to the next (columns/table-cache.ts), and a pairing depends on nothing else (the
 * errored arrays come from the tables, and behaviour flags only ask whether tokens are equal,
 * whatever ids a comparison interned its strings under).
 */
const kept = new WeakMap<RunTable, WeakMap<RunTable, ColumnPairing>>();

export function pairTables(
  reference: RunTable,
  candidate: RunTable,
  refErrored: Uint8Array,
  candErrored: Uint8Array,
  cache: CellCache,
  keep = true,
): ColumnPairing {
  if (!keep) return pairAnew(reference, candidate, refErrored, candErrored, cache);
  let byCandidate = kept.get(reference);
  if (!byCandidate) kept.set(reference, (byCandidate = new WeakMap()));
  let pairing = byCandidate.get(candidate);
  if (!pairing) {
    const other = kept.get(candidate)?.get(reference);
    if (other) {
      pairing = mirrorPairing(other);
      twins.set(pairing, other);
      twins.set(other, pairing);
    } else pairing = pairAnew(reference, candidate, refErrored, candErrored, cache);
    byCandidate.set(candidate, pairing);
  }
  return pairing;
}

/** Each kept pairing's mirror (mirror.ts), both ways, while both are kept. */
const twins = new WeakMap<ColumnPairing, ColumnPairing>();

/** The pairing of the same runs with their roles swapped, when one is kept. */
export function twinOf(p: ColumnPairing): ColumnPairing | undefined {
  return twins.get(p);
}

function pairAnew(
  reference: RunTable,
  candidate: RunTable,
  refErrored: Uint8Array,
  candErrored: Uint8Array,
  cache: CellCache,
): ColumnPairing {
  const { ref, cand } = merge(reference, candidate);
  const n = ref.length;
  const flags = new Uint8Array(n);
  const both = sideCode('both') << SIDE_SHIFT;
  const refOnly = sideCode('reference') << SIDE_SHIFT;
  const candOnly = sideCode('candidate') << SIDE_SHIFT;
  let matched = 0;
  let onlyReference = 0;
  let inputMismatch = 0;
  // Runs of the same ids whose hashes agree in full (inputs, mostly) need no per-example look.
  const same = ref === cand;
  const inputsDiffer = !same || !bytesOf(reference.input).equals(bytesOf(candidate.input));
  const outputsDiffer = !same || !bytesOf(reference.output).equals(bytesOf(candidate.output));
  for (let k = 0; k < n; k++) {
    const i = ref[k]!;
    const j = cand[k]!;
    if (i < 0) {
      flags[k] = candOnly;
      continue;
    }
    if (j < 0) {
      flags[k] = refOnly;
      onlyReference++;
      continue;
    }
    matched++;
    let f = both;
    if (inputsDiffer && hashDiffers(reference.input, i, candidate.input, j)) {
      f |= INPUT_MISMATCH;
      inputMismatch++;
    }
    if (outputsDiffer && hashDiffers(reference.output, i, candidate.output, j)) f |= OUTPUT_CHANGED;
    flags[k] = f;
  }
  const pairing: ColumnPairing = {
    reference,
    candidate,
    n,
    ref,
    cand,
    matched,
    onlyReference,
    onlyCandidate: n - matched - onlyReference,
    flags,
    inputMismatch,
    refErrored,
    candErrored,
  };
  markBehavior(pairing, cache);
  return pairing;
}

/** The id at position k. */
export function idAtPosition(p: ColumnPairing, k: number): string {
  const i = p.ref[k]!;
  return i >= 0 ? idOf(p.reference, i) : idOf(p.candidate, p.cand[k]!);
}

/**
 * Id lists kept with their pairing (kept above), so the next comparison of the same runs copies
 * a list instead of cutting hundreds of thousands of ids out of the joined ids again.
 */
const keptIds = new WeakMap<ColumnPairing, Map<string, string[]>>();

/**
 * `twinKey`: the same list's key on the mirrored pairing, whose positions hold the same ids in
 * the same order, so a list it kept is this one's too.
 */
function idsOnce(p: ColumnPairing, key: string, twinKey: string, list: () => string[]): string[] {
  let byKey = keptIds.get(p);
  if (!byKey) keptIds.set(p, (byKey = new Map()));
  let ids = byKey.get(key);
  if (!ids) {
    const twin = twins.get(p);
    ids = (twin && keptIds.get(twin)?.get(twinKey)) ?? list();
    byKey.set(key, ids);
  }
  return ids.slice();
}

const REFERENCE_SIDE = sideCode('reference') << SIDE_SHIFT;
const CANDIDATE_SIDE = sideCode('candidate') << SIDE_SHIFT;

/** A flags value with its side swapped, as the mirrored pairing codes it. */
function swappedSide(value: number): number {
  const side = value & SIDE_MASK;
  const other =
    side === REFERENCE_SIDE ? CANDIDATE_SIDE : side === CANDIDATE_SIDE ? REFERENCE_SIDE : side;
  return (value & ~SIDE_MASK) | other;
}

/** Positions whose flags byte, masked by the first number, equals the second. */
export type FlagTest = readonly [mask: number, value: number];

/**
 * The ids of the positions that pass each test, in order: the lists not kept yet are taken in
 * one pass that cuts each id out once for every list it is in (most examples whose output
 * changed changed behaviour too).
 */
export function idsFlaggedEach(p: ColumnPairing, tests: readonly FlagTest[]): string[][] {
  let byKey = keptIds.get(p);
  if (!byKey) keptIds.set(p, (byKey = new Map()));
  const keyOf = (mask: number, value: number) => `flags ${mask} ${value}`;
  const keys = tests.map(([mask, value]) => keyOf(mask, value));
  const twin = twins.get(p);
  tests.forEach(([mask, value], t) => {
    const twinKey = keyOf(mask, mask & SIDE_MASK ? swappedSide(value) : value);
    const known = twin && keptIds.get(twin)?.get(twinKey);
    if (!byKey.has(keys[t]!) && known) byKey.set(keys[t]!, known);
  });
  const missing = tests.filter((_, t) => !byKey.has(keys[t]!));
  if (missing.length > 0) {
    const masks = Int32Array.from(missing, ([mask]) => mask);
    const values = Int32Array.from(missing, ([, value]) => value);
    const lists = missing.map((): string[] => []);
    const { n, flags } = p;
    // A flags byte of 0 (on both sides, nothing changed: most examples) passes no test but one
    // looking for 0.
    const zeroPasses = values.includes(0);
    for (let k = 0; k < n; k++) {
      const f = flags[k]!;
      if (f === 0 && !zeroPasses) continue;
      let id: string | null = null;
      for (let m = 0; m < masks.length; m++)
        if ((f & masks[m]!) === values[m]) lists[m]!.push((id ??= idAtPosition(p, k)));
    }
    missing.forEach(([mask, value], m) => byKey.set(keyOf(mask, value), lists[m]!));
  }
  return keys.map((key) => byKey.get(key)!.slice());
}

/** The ids of the matched positions whose example errored on that side, in order. */
export function erroredIds(p: ColumnPairing, side: 'reference' | 'candidate'): string[] {
  const other = side === 'reference' ? 'candidate' : 'reference';
  return idsOnce(p, `errored ${side}`, `errored ${other}`, () => {
    const ids: string[] = [];
    const { n, ref, cand } = p;
    const errored = side === 'reference' ? p.refErrored : p.candErrored;
    if (!errored.includes(1)) return ids;
    const own = side === 'reference' ? ref : cand;
    for (let k = 0; k < n; k++)
      if (ref[k]! >= 0 && cand[k]! >= 0 && errored[own[k]!] === 1) ids.push(idAtPosition(p, k));
    return ids;
  });
}

export function allIds(p: ColumnPairing): string[] {
  return Array.from(p.ref, (_, k) => idAtPosition(p, k));
}
