import type { Report, ReproductionRow } from '../../../shared/compare/types';
import { verdictWords } from '../../../shared/compare/verdict-words';
import type { FindingView, Limitation } from '../../../shared/findings';
import { formatNumber } from '../../../shared/format';
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
  /** The verdict as words, naming what confounds the metric when something does. */
  verdict: string | null;
  /** The verdict's JSON value, for colour. */
  verdictClass: string | null;
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
      verdict: verdictWords(m),
      verdictClass: m.verdict,
      reportedOnly: m.paired === null,
    })),
  );
}

/** A run's own value with its interval, "0.42 [0.3, 0.55], n = 50"; older snapshots have none. */
export function observedText(row: ReproductionRow): string {
  const ci = row.observed_ci95 ?? null;
  if (!ci) return num(row.observed);
  return `${num(row.observed)} [${num(ci[0])}, ${num(ci[1])}], n = ${row.observed_n ?? '—'}`;
}

/** The comparability checks of one pair: the counts, and every check that does not match. */
export interface CheckBlock {
  comparison: string;
  summary: string;
  evaluatedDiffers: boolean;
  rows: { path: string; status: string; reference: string; candidate: string }[];
}

export function checkBlocks(report: Report): CheckBlock[] {
  return report.comparisons.map((c) => {
    const s = c.summary;
    return {
      comparison: `${c.candidate.condition} vs ${c.reference.condition}`,
      summary: `${s.matches} match, ${s.differs} differ, ${s.unknown} unknown, ${s['not applicable']} not applicable`,
      evaluatedDiffers: c.evaluated_differs,
      rows: c.checks
        .filter((k) => k.status !== 'matches')
        .map((k) => ({
          path: k.path,
          status: k.status,
          reference: shownValue(k.reference),
          candidate: shownValue(k.candidate),
        })),
    };
  });
}

export const CHECK_COLUMNS = ['Field', 'Status', 'Reference', 'Candidate'];

/** Numbers in both exports read as they do in the app. */
export function num(value: number | null): string {
  return formatNumber(value);
}

export { formatInterval as interval, formatSigned as signed } from '../../../shared/format';

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

/** How the numbers were computed, as one sentence under the results table of both exports. */
export function statisticsNote(bootstrap: { method: string; resamples: number }): string {
  const method = bootstrap.method.trim().replace(/([^.])$/, '$1.');
  return (
    `Differences are candidate − reference over paired examples. ${method} Random sign ` +
    `patterns, where an exact p-value is out of reach: ${bootstrap.resamples} (seeds in the report).`
  );
}
