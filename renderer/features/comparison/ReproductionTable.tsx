import type { Reproduction, ReproductionRow } from '../../../shared/compare/types';
import { count, fmt, signed } from '../../format';

/** Whether the paper's value lies inside the observed interval; null without an interval. */
function paperInside(row: ReproductionRow): boolean | null {
  const ci = row.observed_ci95 ?? null;
  return ci ? row.paper >= ci[0] && row.paper <= ci[1] : null;
}

/** Paper vs observed, keyed by metric and condition as the experiment recorded them. */
export function ReproductionTable({ reproduction }: { reproduction: Reproduction }) {
  return (
    <div className="scroll-x">
      <table className="grid compact reproduction">
        <thead>
          <tr>
            <th>Metric</th>
            <th>Condition</th>
            <th className="num">Paper</th>
            <th className="num">Observed</th>
            <th title="95 % interval of the run's per-example mean: Wilson for pass/fail outcomes, Student t otherwise">
              95 % interval
            </th>
            <th className="num">Observed − paper</th>
            <th>Paper value</th>
          </tr>
        </thead>
        <tbody>
          {reproduction.rows.map((row) => {
            const inside = paperInside(row);
            return (
              <tr key={`${row.metric}-${row.condition}`}>
                <td>{row.metric}</td>
                <td className="ellipsis" title={row.condition}>
                  {row.condition}
                </td>
                <td className="num">{fmt(row.paper)}</td>
                <td className="num">{fmt(row.observed)}</td>
                <td className="mono">
                  {row.observed_ci95
                    ? `[${fmt(row.observed_ci95[0])}, ${fmt(row.observed_ci95[1])}], n = ${count(row.observed_n ?? 0)}`
                    : 'no interval'}
                </td>
                <td className="num">{signed(row.difference)}</td>
                <td
                  className={
                    inside === null ? 'muted' : inside ? 'class-improved' : 'class-regressed'
                  }
                >
                  {inside === null ? '—' : inside ? 'inside the interval' : 'outside the interval'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The card for an experiment that reproduces a paper: where in the paper, then the table. */
export function ReproductionCard({ reproduction: r }: { reproduction: Reproduction }) {
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
