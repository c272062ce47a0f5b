import type { JobProgress } from '../shared/jobs';

/** Numbers as a researcher reads them: fixed decimals, a sign on differences, a dash for nothing. */
export function fmt(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toFixed(digits);
}

export function signed(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : text;
}

export function interval(ci: [number, number] | null | undefined, digits = 3): string {
  if (!ci) return 'no interval';
  return `[${signed(ci[0], digits)}, ${signed(ci[1], digits)}]`;
}

export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  if (p < 0.001) return '< 0.001';
  return p.toFixed(3);
}

let integers: Intl.NumberFormat | null = null;

/**
 * One formatter for every count: `toLocaleString('en-US')` builds a new ICU formatter on each
 * call, which made a dashboard of counts, or a page of rows, cost tens of milliseconds.
 */
export function count(n: number): string {
  integers ??= new Intl.NumberFormat('en-US');
  return integers.format(n);
}

/** Any JSON value as plain text for a table cell; the caller renders it as text, never HTML. */
export function plain(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function downloadText(
  filename: string,
  content: string,
  type = 'text/csv;charset=utf-8',
): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** By bytes as well as by files: one large file is most of a pass and would sit at "0 / 2". */
export function byteShare(progress: JobProgress): string {
  const { bytes, totalBytes } = progress;
  if (bytes === null || bytes === undefined || !totalBytes) return '';
  const share = Math.min(100, Math.floor((bytes / totalBytes) * 100));
  return ` · ${share} % of ${count(Math.max(1, Math.round(totalBytes / 1e6)))} MB`;
}
