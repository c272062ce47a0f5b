import type { NoiseFloorMetric } from '../../../shared/compare/types';
import type { MetricComparisonView } from '../../../shared/report-view';
import { count, fmt, interval, pValue, plain, signed } from '../../format';
import { HolmText, IntervalText, MetricNotes, VerdictText } from './metricParts';

function ReportedCell({ value }: { value: unknown }) {
  return <td className="num">{typeof value === 'number' ? fmt(value) : plain(value)}</td>;
}

/**
 * One metric of the pair: both runs' reported values, the differences, the interval, the
 * verdict and the tests; the A/A noise floor's cell only when the experiment has one.
 */
export function MetricRow({
  m,
  noise,
  floor,
}: {
  m: MetricComparisonView;
  /** The experiment has replicate reference runs: the row has a noise column. */
  noise: boolean;
  floor: NoiseFloorMetric | undefined;
}) {
  return (
    <tr className={m.not_comparable.length > 0 ? 'confounded' : undefined}>
      <td className="metric-cell">
        <div>{m.name}</div>
        <MetricNotes m={m} />
      </td>
      <ReportedCell value={m.reported.reference} />
      <ReportedCell value={m.reported.candidate} />
      <td className="num">{signed(m.reported.difference)}</td>
      <td className="num strong">{signed(m.paired?.difference)}</td>
      <td className="mono">
        <IntervalText m={m} />
      </td>
      <td>{m.expect ? m.expect.replace('_', ' ') : '—'}</td>
      <td>
        <VerdictText m={m} />
      </td>
      <td className="num">{m.paired ? count(m.paired.n) : '—'}</td>
      <td className="num">{pValue(m.paired?.p_value)}</td>
      <td className="num">
        <HolmText m={m} />
      </td>
      {noise ? (
        <td className="mono">
          {floor ? `${signed(floor.difference)} ${interval(floor.ci95)}` : '—'}
        </td>
      ) : null}
    </tr>
  );
}
