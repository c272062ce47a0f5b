import type { RunScorecard } from '../../../shared/compare/types';
import type { ReportView } from '../../../shared/report-view';
import { count, counted, fmt, plain } from '../../format';

function value(v: RunScorecard['metrics'][number]['value']): string {
  return typeof v === 'number' ? fmt(v) : plain(v);
}

/**
 * Each compared run on its own: what it reports and how many examples it logged, before any
 * pairing. Reports cached by older versions have no scorecards, and the card is left out.
 */
export function RunScorecards({ report }: { report: ReportView }) {
  const runs = report.runs ?? [];
  if (runs.length === 0) return null;
  return (
    <section className="card" aria-label="Runs">
      <h3>Runs</h3>
      <div className="scorecards">
        {runs.map((run) => (
          <article key={run.run_id} className="scorecard" data-testid="scorecard">
            <header>
              <strong className="clamp" title={run.condition}>
                {run.condition}
              </strong>
              <span className="muted small">
                {run.condition === report.experiment.reference ? 'reference' : (run.role ?? '')}
              </span>
            </header>
            <div className="muted small mono ellipsis" title={run.run_id}>
              run {run.run_id}
            </div>
            <div className="small">
              {counted(run.examples, 'example')}
              {run.errored ? `, ${count(run.errored)} errored` : ''}
            </div>
            {run.metrics.length > 0 ? (
              <dl className="scorecard-metrics">
                {run.metrics.map((m) => (
                  <div key={m.name} title={m.description ?? undefined}>
                    <dt className="ellipsis">{m.name}</dt>
                    <dd>{value(m.value)}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="muted small">No metrics logged.</p>
            )}
          </article>
        ))}
      </div>
    </section>
  );
}
