import { formatCount } from '../shared/format';
import type { JobProgress } from '../shared/jobs';

/** Numbers read the same in the app as in the CLI and the exports: one formatter, in shared/. */
export {
  formatCount as count,
  formatCounted as counted,
  formatInterval as interval,
  formatNumber as fmt,
  formatP as pValue,
  formatSigned as signed,
} from '../shared/format';

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
  return ` · ${share} % of ${formatCount(Math.max(1, Math.round(totalBytes / 1e6)))} MB`;
}
