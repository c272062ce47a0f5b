import type { ComparisonView, ReportView } from '../../../shared/report-view';
import { ChangedExamples } from './ChangedExamples';
import { ChecksTable } from './ChecksTable';
import { Coverage, CriteriaTable } from './CoverageCriteria';
import { MetricsTable } from './MetricsTable';
import { PairTitle } from './PairTitle';

/** One line naming what confounds the pair's metrics, or null when nothing does. */
function confounded(comparison: ComparisonView): string | null {
  const paths = [...new Set(comparison.metrics.flatMap((m) => m.not_comparable ?? []))];
  if (paths.length === 0) return null;
  return `Not comparable: ${paths.join(', ')} ${paths.length === 1 ? 'differs' : 'differ'} between the runs, so the affected metrics get no verdict.`;
}

/** A banner naming what the two runs evaluated differently (model, dataset, examples). */
export function EvaluatedDiffers({ comparison }: { comparison: ComparisonView }) {
  if (!comparison.evaluated_differs) return null;
  const paths = comparison.checks
    .filter((c) => c.status === 'differs' && ['model', 'dataset', 'examples'].includes(c.category))
    .map((c) => c.path);
  return (
    <div className="banner" role="alert">
      The runs differ in what was evaluated: {paths.join(', ')}.
    </div>
  );
}

/**
 * Everything about the chosen pair: what confounds it, its metrics, coverage, criteria,
 * changed examples, checks, and what it cannot tell.
 */
export function PairReport({
  report,
  comparison,
  reportKey,
}: {
  report: ReportView;
  comparison: ComparisonView;
  reportKey: string;
}) {
  const pair = report.comparisons.indexOf(comparison);
  const confound = confounded(comparison);
  return (
    <>
      {confound ? (
        <div className="banner" role="alert" data-testid="not-comparable">
          {confound}
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
        <Coverage comparison={comparison} pair={pair} />
        <CriteriaTable comparison={comparison} pair={pair} />
      </div>
      <ChangedExamples comparison={comparison} pair={pair} reportKey={reportKey} />
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
  );
}
