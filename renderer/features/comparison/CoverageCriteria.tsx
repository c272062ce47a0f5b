import type { ReactNode } from 'react';
import type { ComparisonView } from '../../../shared/report-view';
import type { CriterionSummary } from '../../../shared/compare/types';
import { shortPair } from '../../../shared/labels';
import { count, counted, pValue } from '../../format';
import { useApp } from '../../store';
import type { ExamplesFilter } from '../../store/workbench';

function Link({
  n,
  pair,
  filter,
  label,
}: {
  n: number;
  pair: number;
  filter: ExamplesFilter;
  /** What is counted, singular and plural ("input mismatch", "input mismatches"). */
  label: [string, string];
}) {
  const open = useApp((s) => s.openExamples);
  if (n === 0) return <span className="muted">0</span>;
  return (
    <button
      className="link count-link"
      onClick={() => open(pair, filter)}
      aria-label={`${counted(n, ...label)}: show examples`}
    >
      {count(n)}
    </button>
  );
}

/** One figure of the coverage card: its name over its value. */
function Stat({ name, title, children }: { name: string; title?: string; children: ReactNode }) {
  return (
    <div title={title}>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function Coverage({ comparison, pair }: { comparison: ComparisonView; pair: number }) {
  const c = comparison.coverage;
  const e = comparison.examples;
  const reference = comparison.reference.condition;
  const candidate = comparison.candidate.condition;
  const names = shortPair(reference, candidate);
  return (
    <section className="card coverage">
      <h3>Coverage and changes</h3>
      <dl className="stats">
        <Stat name="paired examples">
          <Link
            n={c.paired}
            pair={pair}
            filter={{ side: 'both' }}
            label={['paired example', 'paired examples']}
          />
        </Stat>
        <Stat name={`only in ${names.reference}`} title={reference}>
          <Link
            n={c.only_reference}
            pair={pair}
            filter={{ side: 'reference' }}
            label={['example only in the reference', 'examples only in the reference']}
          />
        </Stat>
        <Stat name={`only in ${names.candidate}`} title={candidate}>
          <Link
            n={c.only_candidate}
            pair={pair}
            filter={{ side: 'candidate' }}
            label={['example only in the candidate', 'examples only in the candidate']}
          />
        </Stat>
        <Stat name="input mismatches">
          <Link
            n={c.input_mismatch}
            pair={pair}
            filter={{ inputMismatch: true }}
            label={['input mismatch', 'input mismatches']}
          />
        </Stat>
        {c.errored_reference !== undefined && c.errored_candidate !== undefined ? (
          <Stat
            name="errored (left out)"
            title="Paired examples that errored are not data: they are left out of every criterion and paired statistic."
          >
            {count(c.errored_reference)} in {reference}, {count(c.errored_candidate)} in {candidate}
          </Stat>
        ) : null}
        <Stat name="output changed">
          <Link
            n={e.output_changed}
            pair={pair}
            filter={{ outputChanged: true }}
            label={['output changed', 'outputs changed']}
          />
        </Stat>
        <Stat name="behaviour changed">
          <Link
            n={e.behavior_changed}
            pair={pair}
            filter={{ behaviorChanged: true }}
            label={['behaviour changed', 'behaviours changed']}
          />
        </Stat>
      </dl>
    </section>
  );
}

function testTitle(k: CriterionSummary): string | undefined {
  if (k.mcnemar) {
    return `McNemar's exact test: ${k.mcnemar.improved} improved vs ${k.mcnemar.regressed} regressed; the chance of a split at least this lopsided if the intervention did nothing.`;
  }
  if (k.wilcoxon && k.wilcoxon.p_value !== null) {
    return `Wilcoxon signed-rank test (${k.wilcoxon.method}) on ${k.wilcoxon.n} non-zero paired differences, T = ${k.wilcoxon.statistic}.`;
  }
  return undefined;
}

export function CriteriaTable({ comparison, pair }: { comparison: ComparisonView; pair: number }) {
  if (comparison.criteria.length === 0) return null;
  return (
    <section className="card scroll-x">
      <h3>Per criterion</h3>
      <table className="grid compact criteria">
        <thead>
          <tr>
            <th>Criterion</th>
            <th>Direction</th>
            <th className="num">Improved</th>
            <th className="num">Regressed</th>
            <th className="num">Unchanged</th>
            <th className="num">Changed</th>
            <th className="num">Not comparable</th>
            <th title="Two-valued criteria: McNemar's exact test on the discordant pairs. Numeric criteria: Wilcoxon signed-rank test on candidate − reference. Two-sided, not corrected for multiple criteria.">
              Paired test p
            </th>
          </tr>
        </thead>
        <tbody>
          {comparison.criteria.map((k) => (
            <tr key={k.field}>
              <td className="mono">{k.field}</td>
              <td className="muted">
                {k.direction
                  ? k.direction.replaceAll('_', ' ')
                  : k.kind === 'categorical'
                    ? 'no direction'
                    : '—'}
              </td>
              {(['improved', 'regressed', 'unchanged', 'changed', 'not_comparable'] as const).map(
                (cls) => (
                  <td key={cls} className={`num class-${cls}`}>
                    <Link
                      n={k[cls]}
                      pair={pair}
                      filter={{ criterion: k.field, changeClass: cls }}
                      label={[`${cls} on ${k.field}`, `${cls} on ${k.field}`]}
                    />
                  </td>
                ),
              )}
              <td className="num" title={testTitle(k)}>
                {k.mcnemar
                  ? `${pValue(k.mcnemar.p_value)} (McNemar)`
                  : k.wilcoxon?.p_value != null
                    ? `${pValue(k.wilcoxon.p_value)} (Wilcoxon)`
                    : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
