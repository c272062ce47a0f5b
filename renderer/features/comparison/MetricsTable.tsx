import { methodsNote } from '../../../shared/compare/methods';
import type { Comparison, NoiseFloor } from '../../../shared/compare/types';
import {
  confoundWords,
  definitionsDiffer,
  powerSentence,
  verdictWords,
} from '../../../shared/compare/verdict-words';
import { count, fmt, interval, pValue, plain, signed } from '../../format';

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

export const SMALL_N_MARK = 'small n — treat as a rough guide';

export function metricsMarkdown(comparison: Comparison): string {
  const head = '| metric | reported Δ | paired Δ | 95% CI | n | p | p (Holm) | expect | verdict |';
  const rule = '|---|---:|---:|---|---:|---:|---:|---|---|';
  const rows = comparison.metrics.map(
    (m) =>
      `| ${m.name} | ${signed(m.reported.difference)} | ${signed(m.paired?.difference)} | ${interval(m.paired?.ci95)}${m.paired?.small_n ? ` (${SMALL_N_MARK})` : ''} | ${m.paired?.n ?? '—'} | ${pValue(m.paired?.p_value)} | ${pValue(m.paired?.p_holm)} | ${m.expect ?? '—'} | ${verdictWords(m) ?? '—'} |`,
  );
  return [
    `**${comparison.candidate.condition} vs ${comparison.reference.condition}**`,
    '',
    head,
    rule,
    ...rows,
  ].join('\n');
}

export function MetricsTable({
  comparison,
  noise,
}: {
  comparison: Comparison;
  noise: NoiseFloor | null;
}) {
  const methods = methodsNote([comparison]);
  return (
    <div className="scroll-x">
      <table className="grid metrics">
        <thead>
          <tr>
            <th>Metric</th>
            <th className="num">
              <span className="ellipsis col-name" title={comparison.reference.condition}>
                {comparison.reference.condition}
              </span>
            </th>
            <th className="num">
              <span className="ellipsis col-name" title={comparison.candidate.condition}>
                {comparison.candidate.condition}
              </span>
            </th>
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
        <tbody>
          {comparison.metrics.map((m) => {
            const floor = noise?.metrics.find((n) => n.name === m.name);
            const sentence = powerSentence(m);
            const survives =
              m.paired?.p_holm !== null && m.paired?.p_holm !== undefined && m.paired.p_holm < 0.05;
            return (
              <tr key={m.name} className={m.not_comparable.length > 0 ? 'confounded' : undefined}>
                <td className="metric-cell">
                  <div>{m.name}</div>
                  {m.description ? (
                    <div className="metric-description small">{m.description}</div>
                  ) : null}
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
                <td className="num">
                  {typeof m.reported.reference === 'number'
                    ? fmt(m.reported.reference)
                    : plain(m.reported.reference)}
                </td>
                <td className="num">
                  {typeof m.reported.candidate === 'number'
                    ? fmt(m.reported.candidate)
                    : plain(m.reported.candidate)}
                </td>
                <td className="num">{signed(m.reported.difference)}</td>
                <td className="num strong">{signed(m.paired?.difference)}</td>
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
                <td>{m.expect ? m.expect.replace('_', ' ') : '—'}</td>
                <td>
                  {m.not_comparable.length > 0 ? (
                    <>
                      <span
                        className="verdict verdict-not_comparable"
                        title={verdictHelp.not_comparable}
                      >
                        {definitionsDiffer(m) ? 'comparison unavailable' : 'not comparable'}
                      </span>
                      <div className="small confound">{confoundWords(m)}</div>
                    </>
                  ) : m.verdict ? (
                    <span className={`verdict verdict-${m.verdict}`} title={verdictHelp[m.verdict]}>
                      {verdictWords(m)}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="num">{m.paired ? count(m.paired.n) : '—'}</td>
                <td className="num">{pValue(m.paired?.p_value)}</td>
                <td className="num">
                  {pValue(m.paired?.p_holm)}
                  {survives ? (
                    <span
                      className="badge-ok"
                      title="Holm-adjusted p < 0.05 across every comparison and metric of the experiment"
                    >
                      {' '}
                      holds after Holm
                    </span>
                  ) : null}
                </td>
                {noise ? (
                  <td className="mono">
                    {floor ? `${signed(floor.difference)} ${interval(floor.ci95)}` : '—'}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
        {methods ? <caption className="caption">{methods}</caption> : null}
      </table>
    </div>
  );
}
