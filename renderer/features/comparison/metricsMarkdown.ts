import type { ComparisonView } from '../../../shared/report-view';
import { verdictWords } from '../../../shared/compare/verdict-words';
import { interval, pValue, signed } from '../../format';

export const SMALL_N_MARK = 'small n — treat as a rough guide';

/** The pair's metrics table as Markdown, for "Copy as Markdown". */
export function metricsMarkdown(comparison: ComparisonView): string {
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
