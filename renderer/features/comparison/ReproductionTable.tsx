import type { Reproduction } from '../../../shared/compare/types';
import { fmt, signed } from '../../format';

/** Paper vs observed, keyed by metric and condition as the experiment recorded them. */
export function ReproductionTable({ reproduction }: { reproduction: Reproduction }) {
  return (
    <table className="grid compact">
      <thead>
        <tr>
          <th>Metric</th>
          <th>Condition</th>
          <th className="num">Paper</th>
          <th className="num">Observed</th>
          <th className="num">Observed − paper</th>
        </tr>
      </thead>
      <tbody>
        {reproduction.rows.map((row) => (
          <tr key={`${row.metric}-${row.condition}`}>
            <td>{row.metric}</td>
            <td>{row.condition}</td>
            <td className="num">{fmt(row.paper)}</td>
            <td className="num">{fmt(row.observed)}</td>
            <td className="num">{signed(row.difference)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
