import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { Comparison, MetricComparison, Report } from '../../../shared/compare/types';
import { request } from '../../api';
import { ForestPlot, forestPlotHeight, type ForestRow } from '../../charts/ForestPlot';
import { SeriesCurve } from '../../charts/SeriesCurve';
import { useWidth } from '../../components/useWidth';
import { downloadText, fmt } from '../../format';
import { useApp } from '../../store';
import { PairPicker } from './PairPicker';
import { PairTitle } from './PairTitle';
import { ensureComparison } from '../../sync';
import { ChangedExamples } from './ChangedExamples';
import { ChecksTable } from './ChecksTable';
import { Coverage, CriteriaTable } from './CoverageCriteria';
import { ExperimentPicker } from './ExperimentPicker';
import { metricsMarkdown, MetricsTable } from './MetricsTable';
import { ReferenceNote } from './ReferenceNote';
import { ReproductionTable } from './ReproductionTable';
import { RunScorecards } from './RunScorecards';

function metricNames(report: Report): string[] {
  return [...new Set(report.comparisons.flatMap((c) => c.metrics.map((m) => m.name)))].sort();
}

/**
 * False for the view's first render, true in a background render right after: the charts then
 * lay out in a task of their own instead of lengthening the one that opens the view.
 */
function useChartsReady(): boolean {
  return useDeferredValue(true, false);
}

/** Why a metric has no interval, in a few words for the list under the forest plot. */
function noIntervalReason(m: MetricComparison | undefined): string {
  if (!m) return 'the pair does not have this metric';
  if (!m.paired) return 'no shared example field: reported values only';
  if (m.paired.n === 0) return '0 paired examples with a value';
  if (m.paired.n === 1) return 'a single pair';
  return m.paired.method;
}

function Overview({ report, metric }: { report: Report; metric: string }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const ready = useChartsReady();
  const rows: ForestRow[] = report.comparisons.map((c) => {
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

const SERIES_HEIGHT = 220;

function Series({ report }: { report: Report }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const ready = useChartsReady();
  if (report.series.length === 0) return null;
  return (
    <section className="card">
      <h3>Series</h3>
      <div ref={ref} className="series-grid">
        {report.series.map((s) => (
          <figure key={`${s.name}-${s.metric}`}>
            <figcaption>
              <strong>{s.metric}</strong> over {s.name}
              {s.trend.spearman_rho !== null ? (
                <span
                  className="muted"
                  title={`Spearman rank correlation with level (${s.trend.method ?? ''}); not corrected for multiple series`}
                >
                  {' '}
                  · Spearman ρ = {fmt(s.trend.spearman_rho, 2)}, p = {fmt(s.trend.p_value, 3)}
                </span>
              ) : null}
            </figcaption>
            {ready ? (
              <SeriesCurve
                points={s.points}
                width={Math.min(560, Math.max(320, width / 2 - 16))}
                height={SERIES_HEIGHT}
                label={`${s.metric} difference from the reference over ${s.name}`}
                metric={s.metric}
                reference={s.reference}
              />
            ) : (
              <div style={{ height: SERIES_HEIGHT }} />
            )}
          </figure>
        ))}
      </div>
      <p className="muted small">
        Filled points: the 95 % interval excludes 0; hollow: it includes 0. Band: 95 % paired
        interval. Small grey points have no interval (reported values only).
      </p>
    </section>
  );
}

function Reproduction({ report }: { report: Report }) {
  const r = report.reproduction;
  if (!r) return null;
  return (
    <section className="card">
      <h3>
        Paper vs observed{' '}
        {r.arxiv ? (
          <span className="muted">
            arXiv:{r.arxiv}
            {r.version ? ` ${r.version}` : ''}
            {r.where ? ` — ${r.where}` : ''}
          </span>
        ) : null}
      </h3>
      <ReproductionTable reproduction={r} />
    </section>
  );
}

/** One line naming what confounds the pair's metrics, or null when nothing does. */
function confounded(comparison: Comparison): string | null {
  const paths = [...new Set(comparison.metrics.flatMap((m) => m.not_comparable ?? []))];
  if (paths.length === 0) return null;
  return `Not comparable: ${paths.join(', ')} ${paths.length === 1 ? 'differs' : 'differ'} between the runs, so the affected metrics get no verdict.`;
}

export function ComparisonView() {
  const experimentId = useApp((s) => s.experimentId);
  const loaded = useApp((s) => s.report);
  const pair = useApp((s) => s.pair);
  const selectPair = useApp((s) => s.selectPair);
  const job = useApp((s) => s.jobs.find((j) => j.kind === 'compare' && j.state === 'running'));
  const toast = useApp((s) => s.toast);
  const report = loaded?.report ?? null;
  const metrics = useMemo(() => (report ? metricNames(report) : []), [report]);
  const [metric, setMetric] = useState<string>('');

  useEffect(() => {
    if (experimentId && !loaded)
      void ensureComparison().catch((e: Error) => toast('error', e.message));
  }, [experimentId, loaded, toast]);

  if (!experimentId) return <p className="muted pad">Pick an experiment in the library.</p>;
  const comparison = report?.comparisons[pair] ?? report?.comparisons[0];
  const shownMetric = metrics.includes(metric) ? metric : (metrics[0] ?? '');

  const copyMarkdown = async () => {
    if (!comparison) return;
    await navigator.clipboard.writeText(metricsMarkdown(comparison));
    toast('info', 'Copied the metrics table as Markdown.');
  };
  const exportSummary = async () => {
    if (!loaded) return;
    const file = await request('export:summaryCsv', { reportKey: loaded.key });
    downloadText(file.filename, file.content);
  };

  return (
    <section className="comparison">
      <header className="toolbar">
        <h2>Comparison</h2>
        <ExperimentPicker />
        {report ? <PairPicker report={report} pair={pair} onChange={selectPair} /> : null}
        <span className="spacer" />
        <button className="secondary" disabled={!comparison} onClick={() => void copyMarkdown()}>
          Copy as Markdown
        </button>
        <button className="secondary" disabled={!loaded} onClick={() => void exportSummary()}>
          Export summary CSV
        </button>
      </header>
      {!report ? (
        <p className="muted pad" role="status">
          {job ? `Comparing… ${job.progress?.phase ?? ''}` : 'Preparing the comparison…'}
        </p>
      ) : (
        <div className="dashboard">
          <ReferenceNote report={report} />
          {report.comparisons.length === 0 ? (
            <p className="muted" role="status">
              Nothing to compare: this experiment has one condition. To compare two of its runs, use
              Compare two runs in the library.
            </p>
          ) : null}
          {report.comparisons.some((c) => c.evaluated_differs) && comparison?.evaluated_differs ? (
            <div className="banner" role="alert">
              The runs differ in what was evaluated:{' '}
              {comparison.checks
                .filter(
                  (c) =>
                    c.status === 'differs' && ['model', 'dataset', 'examples'].includes(c.category),
                )
                .map((c) => c.path)
                .join(', ')}
              .
            </div>
          ) : null}
          <section className="card">
            <header className="card-head">
              <h3>All comparisons</h3>
              <select
                aria-label="Metric"
                value={shownMetric}
                onChange={(e) => setMetric(e.target.value)}
              >
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
            {shownMetric ? (
              <Overview report={report} metric={shownMetric} />
            ) : (
              <p className="muted">No metrics.</p>
            )}
          </section>
          <RunScorecards report={report} />
          {comparison ? (
            <>
              {confounded(comparison) ? (
                <div className="banner" role="alert" data-testid="not-comparable">
                  {confounded(comparison)}
                </div>
              ) : null}
              <section className="card">
                <PairTitle
                  reference={comparison.reference.condition}
                  candidate={comparison.candidate.condition}
                />
                <MetricsTable comparison={comparison} noise={report.noise_floor} />
              </section>
              <div className="two-up">
                <Coverage comparison={comparison} pair={report.comparisons.indexOf(comparison)} />
                <CriteriaTable
                  comparison={comparison}
                  pair={report.comparisons.indexOf(comparison)}
                />
              </div>
              {loaded ? (
                <ChangedExamples
                  comparison={comparison}
                  pair={report.comparisons.indexOf(comparison)}
                  reportKey={loaded.key}
                />
              ) : null}
              <ChecksTable comparison={comparison} />
              {comparison.limitations.length > 0 ? (
                <section className="card">
                  <h3>What this comparison cannot tell you</h3>
                  <ul className="limitations">
                    {comparison.limitations.map((l) => (
                      <li key={l}>{l}</li>
                    ))}
                  </ul>
                </section>
              ) : null}
            </>
          ) : null}
          <Series report={report} />
          <Reproduction report={report} />
        </div>
      )}
    </section>
  );
}
