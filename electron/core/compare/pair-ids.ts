/**
 * A pair's example ids as one string and where in it each id ends (UTF-16 code units): a
 * million ids without a million strings. Id k runs from ends[k − 1] (0 for the first) to ends[k].
 */
export interface PairIds {
  joined: string;
  ends: Uint32Array;
}

/**
 * Ids known to be strictly ascending in code-unit order, by their end offsets: the ids of a
 * pairing of column stores, each of which holds its ids sorted and unique, so the save need
 * not check a million of them. Kept aside, so the ids themselves are the same on both paths.
 */
const ascendingEnds = new WeakSet<Uint32Array>();

export function knownAscending(ids: PairIds): PairIds {
  ascendingEnds.add(ids.ends);
  return ids;
}

/** Whether each id is below the next in code-unit order, known already or checked. */
export function ascendingIds(ids: PairIds): boolean {
  return ascendingEnds.has(ids.ends) || strictlyAscending(ids);
}

export function pairIdsOf(ids: readonly string[]): PairIds {
  const ends = new Uint32Array(ids.length);
  let end = 0;
  ids.forEach((id, k) => (ends[k] = end += id.length));
  return { joined: ids.join(''), ends };
}

export function pairIdAt(ids: PairIds, k: number): string {
  return ids.joined.slice(k === 0 ? 0 : ids.ends[k - 1]!, ids.ends[k]);
}

export function idList(ids: PairIds): string[] {
  return Array.from(ids.ends, (_, k) => pairIdAt(ids, k));
}

/** Whether each id is below the next in code-unit order, compared in place. */
export function strictlyAscending(ids: PairIds): boolean {
  const { joined, ends } = ids;
  let start = 0;
  for (let k = 1; k < ends.length; k++) {
    const a = start;
    const aEnd = ends[k - 1]!;
    const bEnd = ends[k]!;
    let i = a;
    let j = aEnd;
    while (i < aEnd && j < bEnd && joined.charCodeAt(i) === joined.charCodeAt(j)) {
      i++;
      j++;
    }
    // Equal up to the shorter one: the longer id sorts after; equal ids are not ascending.
    const below = i < aEnd ? j < bEnd && joined.charCodeAt(i) < joined.charCodeAt(j) : j < bEnd;
    if (!below) return false;
    start = aEnd;
  }
  return true;
}
