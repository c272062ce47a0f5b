import type { NoiseFloorMetric } from '../../../shared/compare/types';
import type { MetricComparisonView } from '../../../shared/report-view';
import {
  confoundWords,
  definitionsDiffer,
  powerSentence,
  verdictWords,
} from '../../../shared/compare/verdict-words';
import { count, fmt, interval, pValue, plain, signed } from '../../format';
import { SMALL_N_MARK } from './metricsMarkdown';

const verdictHelp: Record<string, string> = {
  consistent:
    'The whole 95 % interval lies on the expected side of 0 (or contains 0 for "no effect").',
  inconsistent:
    'The whole 95 % interval lies on the other side of 0 (or excludes 0 for "no effect").',
  inconclusive: 'The interval is compatible with both: more data or a larger effect is needed.',
  too_few_examples:
    'Too few paired examples for the interval to keep its 95 % promise: no verdict is given.',
  not_comparable:
    'The runs differ in a way that changes this metric by itself (generation settings or the metric’s definition): the difference mixes that change with the intervention, so no verdict is given.',
};

/** The metric's name and what a reader needs to weigh it: definition, field, power. */
function MetricCell({ m }: { m: MetricComparisonView }) {
  const sentence = powerSentence(m);
  return (
    <td className="metric-cell">
      <div>{m.name}</div>
      {m.description ? <div className="metric-description small">{m.description}</div> : null}
      {definitionsDiffer(m) ? (
        <div className="unavailable small" role="note">
          Comparison unavailable: the runs define {m.name} differently
        </div>
      ) : null}
      {m.example_field ? (
        <div className="muted small">from field {m.example_field}</div>
      ) : (
        <div className="muted small">no example field: no interval</div>
      )}
      {sentence ? <div className="muted small power">{sentence}</div> : null}
    </td>
  );
}

function ReportedCell({ value }: { value: unknown }) {
  return <td className="num">{typeof value === 'number' ? fmt(value) : plain(value)}</td>;
}

function IntervalCell({ m }: { m: MetricComparisonView }) {
  return (
    <td className="mono">
      {interval(m.paired?.ci95)}
      {m.paired?.small_n ? (
        <span
          className="small-n"
          title={`Only ${count(m.paired.n)} paired examples: below this n no interval method keeps its 95 % promise, so there is no verdict.`}
        >
          {' '}
          {SMALL_N_MARK}
        </span>
      ) : null}
    </td>
  );
}

function VerdictCell({ m }: { m: MetricComparisonView }) {
  if (m.not_comparable.length > 0)
    return (
      <td>
        <span className="verdict verdict-not_comparable" title={verdictHelp.not_comparable}>
          {definitionsDiffer(m) ? 'comparison unavailable' : 'not comparable'}
        </span>
        <div className="small confound">{confoundWords(m)}</div>
      </td>
    );
  return (
    <td>
      {m.verdict ? (
        <span className={`verdict verdict-${m.verdict}`} title={verdictHelp[m.verdict]}>
          {verdictWords(m)}
        </span>
      ) : (
        '—'
      )}
    </td>
  );
}

function HolmCell({ m }: { m: MetricComparisonView }) {
  const holm = m.paired?.p_holm;
  return (
    <td className="num">
      {pValue(holm)}
      {holm !== null && holm !== undefined && holm < 0.05 ? (
        <span
          className="badge-ok"
          title="Holm-adjusted p < 0.05 across every comparison and metric of the experiment"
        >
          {' '}
          holds after Holm
        </span>
      ) : null}
    </td>
  );
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
      <MetricCell m={m} />
      <ReportedCell value={m.reported.reference} />
      <ReportedCell value={m.reported.candidate} />
      <td className="num">{signed(m.reported.difference)}</td>
      <td className="num strong">{signed(m.paired?.difference)}</td>
      <IntervalCell m={m} />
      <td>{m.expect ? m.expect.replace('_', ' ') : '—'}</td>
      <VerdictCell m={m} />
      <td className="num">{m.paired ? count(m.paired.n) : '—'}</td>
      <td className="num">{pValue(m.paired?.p_value)}</td>
      <HolmCell m={m} />
      {noise ? (
        <td className="mono">
          {floor ? `${signed(floor.difference)} ${interval(floor.ci95)}` : '—'}
        </td>
      ) : null}
    </tr>
  );
}
