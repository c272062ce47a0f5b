/**
 * How a number reads wherever Pairwise writes it as text: the app, the CLI table, the finding
 * exports, the limitations and the CSV files. Text shows significant digits, so 0.000123 keeps
 * its value and 0.20000000000000018 (float noise from a subtraction) reads as 0.2; only the JSON
 * report carries full precision.
 */

/** Significant digits in tables and sentences. */
export const TEXT_DIGITS = 3;

/** Significant digits of a non-integer in a CSV cell: enough to sort and recompute with. */
export const CSV_DIGITS = 6;

/** Below this magnitude a value is written with an exponent (1.2e-5), not a row of zeros. */
const SMALL = 1e-4;

type Maybe = number | null | undefined;

function finite(value: Maybe): value is number {
  return value !== null && value !== undefined && Number.isFinite(value);
}

/** `digits` significant digits, trailing zeros dropped; a dash for nothing. */
export function formatNumber(value: Maybe, digits = TEXT_DIGITS): string {
  if (!finite(value)) return '—';
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 10 ** digits) return String(Math.round(value));
  if (magnitude < SMALL) {
    const [mantissa, exponent] = value.toExponential(digits - 1).split('e');
    return `${String(Number(mantissa))}e${exponent}`;
  }
  const rounded = Number(value.toPrecision(digits));
  return rounded === 0 ? '0' : String(rounded);
}

/** A difference: a plus sign when above 0, so the direction reads at a glance. */
export function formatSigned(value: Maybe, digits = TEXT_DIGITS): string {
  const text = formatNumber(value, digits);
  return finite(value) && value > 0 && text !== '0' ? `+${text}` : text;
}

export function formatInterval(ci: [number, number] | null | undefined, digits = TEXT_DIGITS) {
  if (!ci) return 'no interval';
  return `[${formatSigned(ci[0], digits)}, ${formatSigned(ci[1], digits)}]`;
}

export function formatP(p: Maybe): string {
  if (!finite(p)) return '—';
  if (p < 0.001) return '< 0.001';
  return p.toFixed(3);
}

/**
 * A number for a CSV cell, still a number: integers exactly, anything else to CSV_DIGITS
 * significant digits.
 */
export function csvNumber(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  const rounded = Number(value.toPrecision(CSV_DIGITS));
  return rounded === 0 ? 0 : rounded;
}

let numbers: Intl.NumberFormat | null = null;

/**
 * Counts with en-US grouping. Whole numbers are grouped by hand: a browser's first
 * Intl.NumberFormat loads its number data, 20–45 ms in Chromium, which the app would pay in the
 * task that first shows a count. Anything else goes to one formatter, made once
 * (`toLocaleString('en-US')` builds a new one on each call).
 */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n)) {
    const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
    return n < 0 ? `-${digits}` : digits;
  }
  numbers ??= new Intl.NumberFormat('en-US');
  return numbers.format(n);
}

/** A count and its noun, singular for exactly one: "1 run", "0 runs", "1,204 examples". */
export function formatCounted(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}
