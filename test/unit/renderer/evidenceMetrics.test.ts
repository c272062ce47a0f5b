import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Evidence } from '../../../renderer/features/findings/Evidence';
import { EvidenceMetrics } from '../../../renderer/features/findings/EvidenceMetrics';
import { formatInterval, formatNumber, formatP, formatSigned } from '../../../shared/format';
import type { Report } from '../../../shared/compare/types';
import { snapshotView } from '../../../shared/findings';
import { reportView } from '../../../shared/report-view';
import { evidenceReport, evidenceSnapshot } from '../../fixtures/findings';

/** What a cell reads as: a line-break opportunity is no space, any other tag separates words. */
const text = (html: string) =>
  html
    .replace(/<wbr\/?>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

interface Cell {
  headers: string[];
  text: string;
}

/** The table as a reader's screen reader walks it: column headers by id, then each metric's rows. */
function parse(html: string) {
  const columns = new Map(
    [...html.matchAll(/<th id="([^"]+)" scope="col"[^>]*>(.*?)<\/th>/g)].map((m) => [
      m[1]!,
      text(m[2]!),
    ]),
  );
  const metrics = [...html.matchAll(/<tbody>(.*?)<\/tbody>/g)].map((body) => {
    const head = /<th id="([^"]+)" scope="rowgroup" colSpan="(\d+)">(.*?)<\/th>/.exec(body[1]!)!;
    const cells: Cell[] = [...body[1]!.matchAll(/<td[^>]*headers="([^"]+)"[^>]*>(.*?)<\/td>/g)].map(
      (m) => ({ headers: m[1]!.split(' '), text: text(m[2]!) }),
    );
    return { id: head[1]!, span: Number(head[2]), head: text(head[3]!), cells };
  });
  return { columns, metrics };
}

function render(report: Report, pair = 0) {
  const view = reportView(report);
  return renderToStaticMarkup(
    createElement(EvidenceMetrics, {
      comparison: view.comparisons[pair]!,
      noise: view.noise_floor,
    }),
  );
}

describe("a finding's evidence metrics table", () => {
  it('gives each metric its values, Δ, interval, p and verdict in six cells, each under its header', () => {
    const report = evidenceReport();
    const { columns, metrics } = parse(render(report));
    expect([...columns.values()]).toEqual([
      'steering=none',
      'steering=feature-4521',
      'Paired Δ',
      '95 % interval',
      'p',
      'Verdict',
    ]);
    const comparison = report.comparisons[0]!;
    expect(metrics.map((m) => m.head.split(' ')[0])).toEqual(comparison.metrics.map((m) => m.name));
    for (const [i, metric] of comparison.metrics.entries()) {
      const row = metrics[i]!;
      const paired = metric.paired!;
      expect(row.span).toBe(columns.size);
      expect(row.cells.map((c) => c.text)).toEqual([
        formatNumber(metric.reported.reference as number),
        formatNumber(metric.reported.candidate as number),
        `${formatSigned(paired.difference)} reported ${formatSigned(metric.reported.difference)}`,
        `${formatInterval(paired.ci95)} n = 40`,
        `${formatP(paired.p_value)} Holm ${formatP(paired.p_holm)}`,
        metric.expect ? `${metric.verdict} expected: ${metric.expect}` : '—',
      ]);
      // Each number names its metric's header and its own column's, in the columns' order.
      expect(row.cells.map((c) => c.headers[0])).toEqual(row.cells.map(() => row.id));
      expect(row.cells.map((c) => columns.get(c.headers[1]!))).toEqual([...columns.values()]);
    }
    expect(metrics.find((m) => m.head.startsWith('refusal_rate'))!.cells[5]!.text).toBe(
      'consistent expected: decrease',
    );
  });

  it('puts the notes and the A/A noise floor under the metric’s name, across the table', () => {
    const report = evidenceReport();
    const { metrics } = parse(render(report));
    const refusal = metrics.find((m) => m.head.startsWith('refusal_rate'))!;
    const floor = report.noise_floor!.metrics.find((m) => m.name === 'refusal_rate')!;
    expect(refusal.head).toContain('Share of prompts whose response declines to help');
    expect(refusal.head).toContain('from field refused');
    expect(refusal.head).toContain(
      `Run-to-run noise (A/A): ${formatSigned(floor.difference)} ${formatInterval(floor.ci95)}`,
    );
  });

  it('says what confounds a metric where its verdict would be', () => {
    const { metrics } = parse(render(evidenceReport({ hot: true })));
    for (const m of metrics)
      expect(m.cells[5]!.text).toMatch(/^not comparable generation\.temperature differs/);
  });

  it('marks an interval from too few pairs in its own cell', () => {
    const { metrics } = parse(render(evidenceReport({ count: 5 })));
    expect(metrics[0]!.cells[3]!.text).toMatch(/small n — treat as a rough guide n = 5$/);
  });

  it('gives every header a distinct id when a finding shows several pairs', () => {
    const report = evidenceReport();
    const [pair] = report.comparisons;
    const reversed = { ...pair!, reference: pair!.candidate, candidate: pair!.reference };
    const twoPairs = { ...report, comparisons: [pair!, reversed] };
    const html = renderToStaticMarkup(
      createElement(Evidence, { snapshot: snapshotView(evidenceSnapshot(twoPairs)) }),
    );
    expect(parse(html).metrics).toHaveLength(4);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2 * (6 + 2));
    expect(new Set(ids).size).toBe(ids.length);
    // The finding shows the compact table, not the comparison's wide one.
    expect(html).toContain('evidence-metrics');
    expect(html).not.toContain('Reported Δ');
  });
});
