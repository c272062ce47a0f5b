import type { ReportView } from '../../../shared/report-view';
import { shortPair } from '../../../shared/labels';

/**
 * The pair picker: each pair by the words that tell its two conditions apart, the full names
 * on hover (the picker's title is the chosen pair's).
 */
export function PairPicker({
  report,
  pair,
  onChange,
}: {
  report: ReportView;
  pair: number;
  onChange(pair: number): void;
}) {
  const full = (c: ReportView['comparisons'][number]) =>
    `${c.candidate.condition} vs ${c.reference.condition}`;
  const chosen = report.comparisons[pair];
  return (
    <select
      aria-label="Pair"
      value={pair}
      title={chosen ? full(chosen) : undefined}
      onChange={(e) => onChange(Number(e.target.value))}
    >
      {report.comparisons.map((c, i) => {
        const short = shortPair(c.reference.condition, c.candidate.condition);
        return (
          <option
            key={`${c.candidate.condition}-${c.reference.condition}`}
            value={i}
            title={full(c)}
          >
            {short.candidate} vs {short.reference}
          </option>
        );
      })}
    </select>
  );
}
