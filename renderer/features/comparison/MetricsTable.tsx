import { methodsNote } from '../../../shared/compare/methods';
import type { NoiseFloor } from '../../../shared/compare/types';
import type { ComparisonView } from '../../../shared/report-view';
import { shortPair } from '../../../shared/labels';
import { MetricRow } from './MetricRow';

/**
 * A condition's column: the words that tell it from the other side (what both share is in the
 * card's title above), the full name on hover.
 */
function ConditionHead({ short, full }: { short: string; full: string }) {
  return (
    <th className="num" title={full}>
      <span className="col-name">{short}</span>
    </th>
  );
}

function MetricsHead({ comparison, noise }: { comparison: ComparisonView; noise: boolean }) {
  const reference = comparison.reference.condition;
  const candidate = comparison.candidate.condition;
  const names = shortPair(reference, candidate);
  return (
    <thead>
      <tr>
        <th>Metric</th>
        <ConditionHead short={names.reference} full={reference} />
        <ConditionHead short={names.candidate} full={candidate} />
        <th className="num" title="Difference of the runs' own reported values">
          Reported Δ
        </th>
        <th className="num" title="Mean of per-example differences over matched ids">
          Paired Δ
        </th>
        <th title="95 % paired interval: Tango's score interval for pass/fail outcomes, the t interval otherwise">
          95 % interval
        </th>
        <th>Expected</th>
        <th>Verdict</th>
        <th className="num">n</th>
        <th
          className="num"
          title="Two-sided p of the paired sign-flip permutation test (the exact sign test for pass/fail)"
        >
          p
        </th>
        <th
          className="num"
          title="Holm-adjusted across every comparison and metric of this experiment"
        >
          p (Holm)
        </th>
        {noise ? (
          <th title="Difference between two runs of the reference condition: run-to-run noise">
            Noise (A/A)
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

export function MetricsTable({
  comparison,
  noise,
}: {
  comparison: ComparisonView;
  noise: NoiseFloor | null;
}) {
  const methods = methodsNote([comparison]);
  // The note sits under the table, not in it: a caption is as wide as the table, so at 1024 px
  // it ran past the card with the columns and read as cut off.
  return (
    <>
      <div className="scroll-x">
        <table className="grid metrics">
          <MetricsHead comparison={comparison} noise={noise !== null} />
          <tbody>
            {comparison.metrics.map((m) => (
              <MetricRow
                key={m.name}
                m={m}
                noise={noise !== null}
                floor={noise?.metrics.find((n) => n.name === m.name)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {methods ? <p className="caption">{methods}</p> : null}
    </>
  );
}
