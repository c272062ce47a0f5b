import { useMemo } from 'react';
import type { MetricComparisonView, ReportView } from '../../../shared/report-view';
import { ForestPlot, forestPlotHeight, type ForestRow } from '../../charts/ForestPlot';
import { useWidth } from '../../components/useWidth';
import { useChartsReady } from './useChartsReady';

function metricNames(report: ReportView): string[] {
  return [...new Set(report.comparisons.flatMap((c) => c.metrics.map((m) => m.name)))].sort();
}

/** Why a metric has no interval, in a few words for the list under the forest plot. */
function noIntervalReason(m: MetricComparisonView | undefined): string {
  if (!m) return 'the pair does not have this metric';
  if (!m.paired) return 'no shared example field: reported values only';
  if (m.paired.n === 0) return '0 paired examples with a value';
  if (m.paired.n === 1) return 'a single pair';
  return m.paired.method;
}

function forestRows(report: ReportView, metric: string): ForestRow[] {
  return report.comparisons.map((c) => {
    const m = c.metrics.find((x) => x.name === metric);
    return {
      label: `${c.candidate.condition} vs ${c.reference.condition}`,
      difference: m?.paired?.difference ?? m?.reported.difference ?? null,
      ci95: m?.paired?.ci95 ?? null,
      // A confounded difference is drawn greyed and dashed, with or without an expectation.
      verdict: (m?.not_comparable ?? []).length > 0 ? 'not_comparable' : (m?.verdict ?? null),
      why: noIntervalReason(m),
    };
  });
}

function Overview({ report, metric }: { report: ReportView; metric: string }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const ready = useChartsReady();
  const rows = forestRows(report, metric);
  const noise = report.noise_floor?.metrics.find((m) => m.name === metric)?.ci95 ?? null;
  return (
    <div ref={ref} className="chart">
      {ready ? (
        <ForestPlot rows={rows} width={width} noise={noise} />
      ) : (
        <div style={{ height: forestPlotHeight(rows.filter((r) => r.ci95).length) }} />
      )}
      {noise ? (
        <p className="muted small">
          Shaded: run-to-run noise between two reference runs (A/A interval).
        </p>
      ) : null}
    </div>
  );
}

/**
 * "All comparisons": one metric's paired difference for every pair of the experiment, the
 * metric chosen here. The choice is the view's, so it outlives a reload of the report.
 */
export function OverviewCard({
  report,
  metric,
  onMetric,
}: {
  report: ReportView;
  metric: string;
  onMetric(metric: string): void;
}) {
  const metrics = useMemo(() => metricNames(report), [report]);
  const shown = metrics.includes(metric) ? metric : (metrics[0] ?? '');
  return (
    <section className="card">
      <header className="card-head">
        <h3>All comparisons</h3>
        <select aria-label="Metric" value={shown} onChange={(e) => onMetric(e.target.value)}>
          {metrics.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <span className="muted small">
          paired difference from the reference side, 95 % interval
        </span>
      </header>
      {shown ? <Overview report={report} metric={shown} /> : <p className="muted">No metrics.</p>}
    </section>
  );
}
