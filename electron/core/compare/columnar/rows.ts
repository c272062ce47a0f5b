import type { RunTable } from '../../columns/table';
import { NO_ROWID } from '../codes';
import type { PairRows, PairSide } from '../compute';
import { knownAscending, pairIdsOf, type PairIds } from '../pair-ids';
import { allIds, type ColumnPairing } from './pairing';
import type { CriterionColumns } from './criteria';
import type { ColumnPair } from './report';

/** Each table's smallest and largest rowid, kept with the table. */
const keptRanges = new WeakMap<RunTable, Omit<PairSide, 'runRowid'>>();

function pairSide(runRowid: number, table: RunTable): PairSide {
  let range = keptRanges.get(table);
  if (!range) keptRanges.set(table, (range = rowidRange(table)));
  return { runRowid, ...range };
}

function rowidRange(table: RunTable): Omit<PairSide, 'runRowid'> {
  let first: number | null = null;
  let last: number | null = null;
  for (let k = 0; k < table.n; k++) {
    const rowid = table.rowids[k]!;
    if (first === null || rowid < first) first = rowid;
    if (last === null || rowid > last) last = rowid;
  }
  return { firstRowid: first, lastRowid: last };
}

/**
 * Both runs' ids: as one run stores them when the two hold the same ids, the same run's
 * whichever is the reference, so what the save learns about them once (their byte order,
 * pair-arrays.ts) serves both orders.
 */
function pairIds(p: ColumnPairing, runRowids: { reference: number; candidate: number }): PairIds {
  if (p.ref !== p.cand) return knownAscending(pairIdsOf(allIds(p)));
  const table = runRowids.reference <= runRowids.candidate ? p.reference : p.candidate;
  return knownAscending({ joined: table.joined, ends: table.idEnds });
}

/** A side's rowids by position: the table's own when positions are its indices, as is. */
function rowidsOf(positions: Int32Array, table: RunTable): Float64Array {
  if (positions.length === table.n && isIdentity(positions)) return table.rowids;
  const rowids = new Float64Array(positions.length);
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k]!;
    rowids[k] = i < 0 ? NO_ROWID : table.rowids[i]!;
  }
  return rowids;
}

/** Identity positions, checked once per array (a pairing of runs with the same ids has one). */
const identities = new WeakMap<Int32Array, boolean>();

function isIdentity(positions: Int32Array): boolean {
  let known = identities.get(positions);
  if (known === undefined) {
    known = true;
    for (let k = 0; k < positions.length && known; k++) known = positions[k] === k;
    identities.set(positions, known);
  }
  return known;
}

interface KeptRows {
  pair: number;
  runRowids: { reference: number; candidate: number };
  criteria: CriterionColumns[];
  rows: PairRows;
}

/**
 * The rows last built from a pairing, which a compare worker keeps from one comparison to the
 * next (pairing.ts) with its criteria (criteria.ts): the same pairing, criteria and runs give
 * back the same object, so its encoding is made once (store.ts).
 */
const kept = new WeakMap<ColumnPairing, KeptRows>();

function sameRows(
  known: KeptRows,
  pair: number,
  runRowids: { reference: number; candidate: number },
  criteria: CriterionColumns[],
): boolean {
  return (
    known.pair === pair &&
    known.runRowids.reference === runRowids.reference &&
    known.runRowids.candidate === runRowids.candidate &&
    known.criteria.length === criteria.length &&
    known.criteria.every(
      (c, i) =>
        c.classes === criteria[i]!.classes &&
        c.deltas === criteria[i]!.deltas &&
        c.summary.field === criteria[i]!.summary.field,
    )
  );
}

/** A pair's explorer rows from its columns: the same rows as the object path builds. */
export function columnPairRows(
  pair: number,
  { pairing: p, criteria }: ColumnPair,
  runRowids: { reference: number; candidate: number },
): PairRows {
  const known = kept.get(p);
  if (known && sameRows(known, pair, runRowids, criteria)) return known.rows;
  const rows = buildRows(pair, p, criteria, runRowids);
  kept.set(p, { pair, runRowids: { ...runRowids }, criteria, rows });
  return rows;
}

function buildRows(
  pair: number,
  p: ColumnPairing,
  criteria: CriterionColumns[],
  runRowids: { reference: number; candidate: number },
): PairRows {
  return {
    pair,
    reference: pairSide(runRowids.reference, p.reference),
    candidate: pairSide(runRowids.candidate, p.candidate),
    ids: pairIds(p, runRowids),
    refRowids: rowidsOf(p.ref, p.reference),
    candRowids: rowidsOf(p.cand, p.candidate),
    flags: p.flags,
    criteria: criteria.map((c) => c.summary.field),
    classes: criteria.map((c) => c.classes),
    deltas: criteria.map((c) => c.deltas),
  };
}
