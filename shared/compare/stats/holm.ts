/**
 * Holm's step-down adjustment for multiple comparisons (Holm 1979, "A simple sequentially
 * rejective multiple test procedure", Scand. J. Statist. 6:65–70): sort the m p-values, multiply
 * the i-th smallest by m − i + 1, keep the running maximum, cap at 1.
 */

/** Adjusted p-values in the input's order; nulls are not tests and stay null. */
export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const tests = pValues
    .map((p, index) => ({ p, index }))
    .filter((t): t is { p: number; index: number } => t.p !== null)
    // Ties keep input order, so the result never depends on the sort's stability.
    .sort((x, y) => x.p - y.p || x.index - y.index);
  const m = tests.length;
  const out: (number | null)[] = pValues.map(() => null);
  let running = 0;
  tests.forEach((t, i) => {
    running = Math.max(running, Math.min(1, (m - i) * t.p));
    out[t.index] = running;
  });
  return out;
}
