import { useEffect, useState } from 'react';
import type { ComparisonView } from '../../../shared/report-view';
import { downloadText } from '../../format';
import { useApp } from '../../store';
import type { LoadedReport } from '../../store/workbench';
import { ensureComparison } from '../../sync';
import { ExperimentPicker } from './ExperimentPicker';
import { metricsMarkdown } from './metricsMarkdown';
import { OverviewCard } from './OverviewCard';
import { PairPicker } from './PairPicker';
import { EvaluatedDiffers, PairReport } from './PairReport';
import { ReferenceNote } from './ReferenceNote';
import { ReproductionCard } from './ReproductionTable';
import { RunScorecards } from './RunScorecards';
import { SeriesCard } from './SeriesCard';
import { useRequest } from '../../useRequest';
import { READ_ONLY_TITLE, useReadOnly } from '../../useReadOnly';

function ComparisonToolbar({
  loaded,
  comparison,
}: {
  loaded: LoadedReport | null;
  comparison: ComparisonView | undefined;
}) {
  const pair = useApp((s) => s.pair);
  const selectPair = useApp((s) => s.selectPair);
  const toast = useApp((s) => s.toast);
  const run = useRequest();
  const copyMarkdown = () => {
    if (!comparison) return;
    navigator.clipboard.writeText(metricsMarkdown(comparison)).then(
      () => toast('info', 'Copied the metrics table as Markdown.'),
      (error: unknown) =>
        toast('error', `Could not copy to the clipboard: ${(error as Error).message}`),
    );
  };
  const exportSummary = () => {
    if (!loaded) return;
    run('export:summaryCsv', { reportKey: loaded.key }, (file) =>
      downloadText(file.filename, file.content),
    );
  };
  return (
    <header className="toolbar">
      <h2>Comparison</h2>
      <ExperimentPicker />
      {loaded ? <PairPicker report={loaded.report} pair={pair} onChange={selectPair} /> : null}
      <span className="spacer" />
      <button className="secondary" disabled={!comparison} onClick={copyMarkdown}>
        Copy as Markdown
      </button>
      <button className="secondary" disabled={!loaded} onClick={exportSummary}>
        Export summary CSV
      </button>
    </header>
  );
}

function Dashboard({
  loaded,
  comparison,
  metric,
  onMetric,
}: {
  loaded: LoadedReport;
  comparison: ComparisonView | undefined;
  metric: string;
  onMetric(metric: string): void;
}) {
  const { report } = loaded;
  return (
    <div className="dashboard">
      <ReferenceNote report={report} />
      {report.comparisons.length === 0 ? (
        <p className="muted" role="status">
          Nothing to compare: this experiment has one condition. To compare two of its runs, use
          Compare two runs in the library.
        </p>
      ) : null}
      {comparison ? <EvaluatedDiffers comparison={comparison} /> : null}
      <OverviewCard report={report} metric={metric} onMetric={onMetric} />
      <RunScorecards report={report} />
      {comparison ? (
        <PairReport report={report} comparison={comparison} reportKey={loaded.key} />
      ) : null}
      <SeriesCard report={report} />
      {report.reproduction ? <ReproductionCard reproduction={report.reproduction} /> : null}
    </div>
  );
}

export function ComparisonView() {
  const experimentId = useApp((s) => s.experimentId);
  const loaded = useApp((s) => s.report);
  const pair = useApp((s) => s.pair);
  const job = useApp((s) => s.jobs.find((j) => j.kind === 'compare' && j.state === 'running'));
  const toast = useApp((s) => s.toast);
  const { readOnly } = useReadOnly();
  // Kept here, above the report: the chosen metric outlives a reload of the report.
  const [metric, setMetric] = useState<string>('');

  useEffect(() => {
    if (experimentId && !loaded)
      void ensureComparison().catch((e: Error) => toast('error', e.message));
  }, [experimentId, loaded, toast]);

  if (!experimentId) return <p className="muted pad">Pick an experiment in the library.</p>;
  const comparison = loaded?.report.comparisons[pair] ?? loaded?.report.comparisons[0];
  return (
    <section className="comparison">
      <ComparisonToolbar loaded={loaded} comparison={comparison} />
      {!loaded ? (
        <p className="muted pad" role="status">
          {job
            ? `Comparing… ${job.progress?.phase ?? ''}`
            : readOnly
              ? `No comparison of these runs yet (${READ_ONLY_TITLE} to compare them).`
              : 'Preparing the comparison…'}
        </p>
      ) : (
        <Dashboard loaded={loaded} comparison={comparison} metric={metric} onMetric={setMetric} />
      )}
    </section>
  );
}
