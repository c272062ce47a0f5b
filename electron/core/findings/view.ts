import type { Report } from '../../../shared/compare/types';
import type { FindingView, Limitation } from '../../../shared/findings';
import type { JsonValue } from '../../../shared/model';

/**
 * What both exports show, taken from a revision's snapshot at export time (never stored as
 * text): the metric rows with intervals and verdicts, paper-vs-observed, and the limitations
 * the researcher kept.
 */

export interface MetricRow {
  comparison: string;
  metric: string;
  reference: string;
  candidate: string;
  n: number | null;
  difference: number | null;
  ci95: [number, number] | null;
  resamples: number | null;
  method: string | null;
  expect: string | null;
  verdict: string | null;
  /** True when the difference is the reported (run-level) one: there is no interval. */
  reportedOnly: boolean;
}

export function metricRows(report: Report): MetricRow[] {
  return report.comparisons.flatMap((c) =>
    c.metrics.map((m) => ({
      comparison: `${c.candidate.condition} vs ${c.reference.condition}`,
      metric: m.name,
      reference: shownValue(m.reported.reference),
      candidate: shownValue(m.reported.candidate),
      n: m.paired?.n ?? null,
      difference: m.paired?.difference ?? m.reported.difference,
      ci95: m.paired?.ci95 ?? null,
      resamples: m.paired?.resamples ?? null,
      method: m.paired?.method ?? null,
      expect: m.expect,
      verdict: m.verdict,
      reportedOnly: m.paired === null,
    })),
  );
}

/** Four significant decimals are plenty for rates and scores, and keep tables readable. */
export function num(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const rounded = Number(value.toFixed(4));
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

export function interval(ci: [number, number] | null): string {
  return ci ? `[${num(ci[0])}, ${num(ci[1])}]` : 'no interval';
}

function shownValue(value: JsonValue): string {
  if (value === null) return '—';
  if (typeof value === 'number') return num(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Accepted and edited limitations only: proposed ones were never judged, dismissed ones were. */
export function keptLimitations(limitations: Limitation[]): Limitation[] {
  return limitations.filter((l) => l.status === 'accepted' || l.status === 'edited');
}

/** "refusal-ablation-r3.html": safe on every file system, recognisable in a downloads folder. */
export function exportFileName(view: FindingView, extension: 'md' | 'html'): string {
  const slug =
    view.finding.title
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'finding';
  return `${slug}-r${view.revision}.${extension}`;
}

export function exportedAt(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The column heads of the metrics table, the same in the Markdown and the HTML export. */
export const METRIC_COLUMNS = [
  'Comparison',
  'Metric',
  'Reference',
  'Candidate',
  'n',
  'Difference',
  '95% CI',
  'Resamples',
  'Expected',
  'Verdict',
];
