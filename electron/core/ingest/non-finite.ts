import type { ImportedRun } from '../../../shared/model';

/**
 * Python's json.dumps writes float('nan') and float('inf') as the bare words NaN, Infinity and
 * -Infinity, which JSON.parse rejects. Tools written in Python (lm-evaluation-harness, Inspect)
 * write them into results and samples, so their files are read with those words allowed; the
 * values are kept as non-finite numbers, which every later step treats as missing (stored as
 * JSON null, left out of statistics).
 */

/** A string no run file holds in practice; only values equal to it are turned back. */
const SENTINEL = '\u0000pairwise-non-finite:';
const VALUES: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
/** A JSON string (unrolled loop: no backtracking), or one of the words outside strings. */
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?Infinity|NaN/g;

/**
 * The text with each NaN / Infinity / -Infinity outside strings replaced by a sentinel string,
 * or null when there is none (then the words cannot be why a parse failed). One pass; strings
 * are matched whole, so the words inside them stay text.
 */
export function rewriteNonFinite(text: string): string | null {
  let found = 0;
  const rewritten = text.replace(TOKEN, (match) => {
    if (match.charCodeAt(0) === 0x22) return match;
    found++;
    return JSON.stringify(SENTINEL + match);
  });
  return found > 0 ? rewritten : null;
}

/** JSON.parse reviver turning the sentinels back into numbers. */
export function reviveNonFinite(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.startsWith(SENTINEL)
    ? (VALUES[value.slice(SENTINEL.length)] ?? value)
    : value;
}

/**
 * Non-finite numbers anywhere in a value (also 1e309 and the like, which parse as Infinity).
 * It runs on every example's fields: a recursion with indexed loops (sortedJson recurses
 * through the same values) costs half what a stack and for…of did, most in a worker's first
 * files, before V8 optimises it.
 */
export function countNonFinite(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : 1;
  return value !== null && typeof value === 'object' ? countNonFiniteIn(value) : 0;
}

function countNonFiniteIn(item: object): number {
  const children: unknown[] = Array.isArray(item) ? item : Object.values(item);
  let n = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (typeof child === 'number') {
      if (!Number.isFinite(child)) n++;
    } else if (child !== null && typeof child === 'object') n += countNonFiniteIn(child);
  }
  return n;
}

/** The non-finite values a run holds, for its one warning about them. */
export function countNonFiniteInRun(run: ImportedRun): number {
  let n =
    countNonFinite(run.metrics) + countNonFinite(run.settings) + countNonFinite(run.provenance);
  for (const example of run.examples) n += countNonFinite(example.fields);
  return n;
}

/** Adds "N non-finite values (NaN/Infinity) read as missing" to each run that has some. */
export function warnNonFinite(runs: ImportedRun[]): void {
  for (const run of runs) {
    const n = countNonFiniteInRun(run);
    if (n === 0) continue;
    const what = n === 1 ? 'non-finite value' : 'non-finite values';
    run.warnings.push(`${n.toLocaleString('en-US')} ${what} (NaN/Infinity) read as missing`);
  }
}
