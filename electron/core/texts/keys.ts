/**
 * An example's key: its run's rowid and its place in the order the run's examples were
 * imported (file order), as one number. It names the example wherever a rowid of the old
 * examples table did (the column store, a pair's arrays, full-text search, traces), so no
 * table needs a row per example. A run holds at most MAX_EXAMPLES_PER_RUN (2 million), under
 * KEY_SPAN; rowids times KEY_SPAN stay exact doubles up to 2^29 runs.
 */
export const KEY_SPAN = 2 ** 24;

export function exampleKey(runRowid: number, ordinal: number): number {
  return runRowid * KEY_SPAN + ordinal;
}

export function runOfKey(key: number): number {
  return Math.floor(key / KEY_SPAN);
}

export function ordinalOfKey(key: number): number {
  return key % KEY_SPAN;
}

/** The keys a run's n examples take: the span the full-text fill and search walk. */
export function keySpan(runRowid: number, n: number): { first: number; last: number } | null {
  return n === 0 ? null : { first: exampleKey(runRowid, 0), last: exampleKey(runRowid, n - 1) };
}
