import { ascendingIds, idList, pairIdAt, type PairIds } from './pair-ids';

/**
 * The order the explorer lists a pair's examples in "by example id", and whose ties it breaks
 * by: UTF-8 byte order (SQLite's text order), except for numbered ids: every id one shared
 * prefix (maybe none) and a whole number written without leading zeros, as lm-evaluation-
 * harness's `doc_id` (0, 1, 2 …), HumanEval's `HumanEval/0` … or `sample_1`, which go by
 * number: 2 before 10. Byte order put 0, 1, 10, 100, 1000, 1001 … first, so "the first
 * examples" of a benchmark were not its first items. Pairing and resampling keep the code-unit
 * order, so reports do not depend on this.
 */
export interface IdOrder {
  /** The pairing's positions in this order, or null when they already are. */
  order: Int32Array | null;
  /** Whether the ids are numbered, so compared by length first, then by bytes. */
  numbered: boolean;
}

const ZERO = 0x30;
const NINE = 0x39;
const isDigit = (code: number) => code >= ZERO && code <= NINE;

/**
 * Whether every id is one shared prefix followed by digits with no leading zero ("0" itself is
 * one). The prefix is what all ids start with, less any digits it ends in, so 10, 11 and 100
 * are numbers, not "1" and 0, 1 and 00. With the prefix shared, comparing by length and then
 * by bytes is comparing the numbers, however many digits they have.
 */
export function numberedIds({ joined, ends }: PairIds): boolean {
  const n = ends.length;
  if (n === 0) return false;
  let prefix = ends[0]!;
  for (let k = 1, start = ends[0]!; k < n && prefix > 0; k++) {
    const end = ends[k]!;
    let i = 0;
    while (i < prefix && start + i < end && joined.charCodeAt(i) === joined.charCodeAt(start + i))
      i++;
    prefix = i;
    start = end;
  }
  while (prefix > 0 && isDigit(joined.charCodeAt(prefix - 1))) prefix--;
  let start = 0;
  for (let k = 0; k < n; k++) {
    const end = ends[k]!;
    const first = start + prefix;
    if (end === first || (end - first > 1 && joined.charCodeAt(first) === ZERO)) return false;
    for (let i = first; i < end; i++) if (!isDigit(joined.charCodeAt(i))) return false;
    start = end;
  }
  return true;
}

/**
 * The order of a pair's ids; of some of them (its paired ones, say) when `numbered` says what
 * the whole pair's are, since one id that is not numbered puts every row in byte order.
 */
export function idOrderOf(ids: PairIds, numbered = numberedIds(ids)): IdOrder {
  return { order: numbered ? numberOrder(ids) : byteOrder(ids), numbered };
}

/**
 * Numbered ids in ascending number: the code-unit order the pairing gives, then one stable
 * counting pass by length (of equal length, the prefix being shared, they sort as their
 * numbers do), so a million ids take two linear passes; ids in any other order are sorted
 * outright.
 */
function numberOrder(ids: PairIds): Int32Array | null {
  const n = ids.ends.length;
  const lengths = new Int32Array(n);
  let longest = 0;
  let sorted = true;
  for (let k = 0; k < n; k++) {
    const length = ids.ends[k]! - (k === 0 ? 0 : ids.ends[k - 1]!);
    lengths[k] = length;
    if (length > longest) longest = length;
    else if (length < longest) sorted = false;
  }
  if (!ascendingIds(ids))
    return Int32Array.from(lengths.keys()).sort(
      (a, b) => lengths[a]! - lengths[b]! || compareStrings(pairIdAt(ids, a), pairIdAt(ids, b)),
    );
  if (sorted) return null;
  const starts = new Int32Array(longest + 2);
  for (let k = 0; k < n; k++) starts[lengths[k]! + 1]!++;
  for (let length = 1; length <= longest + 1; length++) starts[length]! += starts[length - 1]!;
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[starts[lengths[k]!]!++] = k;
  return order;
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Positions in UTF-8 byte order, or null when the rows already are. Pairing sorts ids by
 * UTF-16 code units, which is the same order unless an id holds a character from U+D800 on
 * (a surrogate pair sorts below U+E000–U+FFFF in UTF-16, above it in UTF-8).
 */
function byteOrder(ids: PairIds): Int32Array | null {
  if (!/[\ud800-\uffff]/.test(ids.joined) && ascendingIds(ids)) return null;
  const encoded = idList(ids).map((id) => Buffer.from(id, 'utf8'));
  return Int32Array.from(encoded.keys()).sort((a, b) => Buffer.compare(encoded[a]!, encoded[b]!));
}

/**
 * Bytes [start, end) of `ids` against `id` in a pair's order: < 0, 0 or > 0. Numbered ids
 * compare by length first, which is also a total order on any bytes, so a cursor that names no
 * id of the pair still finds a place.
 */
export function compareIdBytes(
  ids: Buffer,
  start: number,
  end: number,
  id: Buffer,
  numbered: boolean,
): number {
  if (numbered && end - start !== id.length) return end - start < id.length ? -1 : 1;
  return ids.compare(id, 0, id.length, start, end);
}
