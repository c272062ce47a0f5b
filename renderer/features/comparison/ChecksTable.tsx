import { useState } from 'react';
import type { ComparisonView } from '../../../shared/report-view';
import { plain } from '../../format';

export function ChecksTable({ comparison }: { comparison: ComparisonView }) {
  const [all, setAll] = useState(false);
  const rows = all ? comparison.checks : comparison.checks.filter((c) => c.status !== 'matches');
  const s = comparison.summary;
  return (
    <section className="card">
      <header className="card-head">
        <h3>Comparability checks</h3>
        <span className="muted">
          <span className="status status-matches">{s.matches} match</span> ·{' '}
          <span className="status status-differs">{s.differs} differ</span> ·{' '}
          <span className="status status-unknown">{s.unknown} unknown</span> · {s['not applicable']}{' '}
          not applicable
        </span>
        <span className="spacer" />
        <label className="inline">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> show
          matching checks too
        </label>
      </header>
      <table className="grid compact checks">
        <thead>
          <tr>
            <th>Field</th>
            <th>Status</th>
            <th>{comparison.reference.condition}</th>
            <th>{comparison.candidate.condition}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((check) => (
            <tr key={check.path}>
              <td className="mono">{check.path}</td>
              <td>
                <span className={`status status-${check.status.replace(' ', '-')}`}>
                  {check.status}
                </span>
              </td>
              <td className="mono wrap">{plain(check.reference)}</td>
              <td className="mono wrap">{plain(check.candidate)}</td>
            </tr>
          ))}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="muted">
                Every check matches.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}
