import { useId } from 'react';
import { methodsNote } from '../../../shared/compare/methods';
import type { NoiseFloor, NoiseFloorMetric } from '../../../shared/compare/types';
import type { ComparisonView, MetricComparisonView } from '../../../shared/report-view';
import { shortPair } from '../../../shared/labels';
import { count, fmt, interval, plain, pValue, signed } from '../../format';
import { BreakableText } from '../../components/BreakableText';
import { IntervalText, MetricNotes, VerdictText } from '../comparison/metricParts';

/** The ids of the six column headers, which every number cell names with its metric's. */
interface Columns {
  reference: string;
  candidate: string;
  difference: string;
  interval: string;
  p: string;
  verdict: string;
}

function reported(value: unknown): string {
  return typeof value === 'number' ? fmt(value) : plain(value);
}

/** Holm's p beneath the test's, green where it still holds after the adjustment. */
function HolmLine({ m }: { m: MetricComparisonView }) {
  const holm = m.paired?.p_holm;
  if (holm === null || holm === undefined) return null;
  return holm < 0.05 ? (
    <div
      className="small badge-ok"
      title="Holds after Holm: the Holm-adjusted p is below 0.05 across every comparison and metric of the experiment"
    >
      Holm <span className="nowrap">{pValue(holm)}</span>
    </div>
  ) : (
    <div className="muted small">
      Holm <span className="nowrap">{pValue(holm)}</span>
    </div>
  );
}

/**
 * One metric: its name and notes on a row of their own across the table, its numbers on the row
 * beneath, so the notes take the card's width instead of a tall first column.
 */
function EvidenceMetric({
  m,
  floor,
  columns,
  id,
}: {
  m: MetricComparisonView;
  floor: NoiseFloorMetric | undefined;
  columns: Columns;
  id: string;
}) {
  const cell = (column: keyof Columns) => `${id} ${columns[column]}`;
  return (
    <tbody>
      <tr className="metric-head">
        <th id={id} scope="rowgroup" colSpan={6}>
          <div className="metric-name">{m.name}</div>
          <MetricNotes m={m} />
          {floor ? (
            <div className="muted small">
              Run-to-run noise (A/A): {signed(floor.difference)} {interval(floor.ci95)}
            </div>
          ) : null}
        </th>
      </tr>
      <tr className={m.not_comparable.length > 0 ? 'confounded' : undefined}>
        <td className="num" headers={cell('reference')}>
          {reported(m.reported.reference)}
        </td>
        <td className="num" headers={cell('candidate')}>
          {reported(m.reported.candidate)}
        </td>
        <td className="num" headers={cell('difference')}>
          <div className="strong">{signed(m.paired?.difference)}</div>
          <div className="muted small">
            reported <span className="nowrap">{signed(m.reported.difference)}</span>
          </div>
        </td>
        <td className="mono" headers={cell('interval')}>
          <IntervalText m={m} />
          {m.paired ? <div className="muted small nowrap">n = {count(m.paired.n)}</div> : null}
        </td>
        <td className="num" headers={cell('p')}>
          {pValue(m.paired?.p_value)}
          <HolmLine m={m} />
        </td>
        <td headers={cell('verdict')}>
          <VerdictText m={m} />
          {m.expect ? (
            <div className="muted small">expected: {m.expect.replace('_', ' ')}</div>
          ) : null}
        </td>
      </tr>
    </tbody>
  );
}

/** The six columns' widths and headers; a condition's column shows what tells it from the other. */
function EvidenceHead({ columns, comparison }: { columns: Columns; comparison: ComparisonView }) {
  const reference = comparison.reference.condition;
  const candidate = comparison.candidate.condition;
  const names = shortPair(reference, candidate);
  return (
    <>
      <colgroup>
        <col className="value" />
        <col className="value" />
        <col className="difference" />
        <col className="interval" />
        <col className="p" />
        <col className="verdict" />
      </colgroup>
      <thead>
        <tr>
          <th id={columns.reference} scope="col" className="num" title={reference}>
            <span className="col-name">
              <BreakableText text={names.reference} />
            </span>
          </th>
          <th id={columns.candidate} scope="col" className="num" title={candidate}>
            <span className="col-name">
              <BreakableText text={names.candidate} />
            </span>
          </th>
          <th
            id={columns.difference}
            scope="col"
            className="num"
            title="Mean of per-example differences over matched ids; beneath it, the difference of the runs' own reported values"
          >
            Paired Δ
          </th>
          <th
            id={columns.interval}
            scope="col"
            title="95 % paired interval: Tango's score interval for pass/fail outcomes, the t interval otherwise; beneath it, the number of paired examples"
          >
            95 % interval
          </th>
          <th
            id={columns.p}
            scope="col"
            className="num"
            title="Two-sided p of the paired sign-flip permutation test (the exact sign test for pass/fail); beneath it, p adjusted by Holm across every comparison and metric of this experiment"
          >
            p
          </th>
          <th id={columns.verdict} scope="col">
            Verdict
          </th>
        </tr>
      </thead>
    </>
  );
}

/**
 * A pair's metrics as a finding cites them, in six columns that fit the finding's card: both
 * runs' values, the paired Δ, its interval, p and the verdict. What the comparison's wide table
 * gives columns of their own (reported Δ, n, Holm, expectation, A/A noise) sits beneath the
 * number it qualifies.
 */
export function EvidenceMetrics({
  comparison,
  noise,
}: {
  comparison: ComparisonView;
  noise: NoiseFloor | null;
}) {
  const id = useId();
  const columns: Columns = {
    reference: `${id}-reference`,
    candidate: `${id}-candidate`,
    difference: `${id}-difference`,
    interval: `${id}-interval`,
    p: `${id}-p`,
    verdict: `${id}-verdict`,
  };
  const methods = methodsNote([comparison]);
  return (
    <>
      <table className="grid metrics evidence-metrics">
        <EvidenceHead columns={columns} comparison={comparison} />
        {comparison.metrics.map((m, i) => (
          <EvidenceMetric
            key={m.name}
            m={m}
            floor={noise?.metrics.find((n) => n.name === m.name)}
            columns={columns}
            id={`${id}-metric-${i}`}
          />
        ))}
      </table>
      {methods ? <p className="caption">{methods}</p> : null}
    </>
  );
}
