import type { MetricComparisonView } from '../../../shared/report-view';
import {
  confoundWords,
  definitionsDiffer,
  powerSentence,
  verdictWords,
} from '../../../shared/compare/verdict-words';
import { BreakableText } from '../../components/BreakableText';
import { count, interval, pValue } from '../../format';
import { SMALL_N_MARK } from './metricsMarkdown';

/**
 * What a metric's numbers are made of, shown by the comparison's wide table and the finding's
 * compact one alike, so the two never tell a metric's story differently.
 */

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

/** What a reader needs to weigh the metric: definition, field, power. */
export function MetricNotes({ m }: { m: MetricComparisonView }) {
  const sentence = powerSentence(m);
  return (
    <>
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
    </>
  );
}

export function IntervalText({ m }: { m: MetricComparisonView }) {
  return (
    <>
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
    </>
  );
}

/** The verdict in words, or what confounds the metric when the runs are not comparable on it. */
export function VerdictText({ m }: { m: MetricComparisonView }) {
  if (m.not_comparable.length > 0)
    return (
      <>
        <span className="verdict verdict-not_comparable" title={verdictHelp.not_comparable}>
          {definitionsDiffer(m) ? 'comparison unavailable' : 'not comparable'}
        </span>
        <div className="small confound">
          <BreakableText text={confoundWords(m)} />
        </div>
      </>
    );
  return m.verdict ? (
    <span className={`verdict verdict-${m.verdict}`} title={verdictHelp[m.verdict]}>
      {verdictWords(m)}
    </span>
  ) : (
    '—'
  );
}

export function HolmText({ m }: { m: MetricComparisonView }) {
  const holm = m.paired?.p_holm;
  return (
    <>
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
    </>
  );
}
