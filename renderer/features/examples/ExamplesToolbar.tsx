import type { VisibilityState } from '@tanstack/react-table';
import type { ComparisonView, ReportView } from '../../../shared/report-view';
import { shortPair } from '../../../shared/labels';
import { counted } from '../../format';
import { useApp } from '../../store';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { PairPicker } from '../comparison/PairPicker';
import { ColumnChooser } from './ColumnChooser';
import type { PairColumn } from './columns';

/**
 * The explorer's header: which experiment and pair (with the words the pair's names share),
 * how many examples match (or how far search is being prepared), the column chooser and the
 * CSV exports.
 */
export function ExamplesToolbar({
  report,
  comparison,
  total,
  searchPending,
  columns,
  hidden,
  onHidden,
  onExport,
}: {
  report: ReportView;
  comparison: ComparisonView;
  total: number | null;
  /** Set while the pair's runs are not yet searchable: how far the search index is. */
  searchPending: { done: number; total: number } | null;
  columns: PairColumn[];
  hidden: VisibilityState;
  onHidden(next: VisibilityState): void;
  /** Exports this view, or every pair when `all`. */
  onExport(all: boolean): void;
}) {
  const pair = useApp((s) => s.pair);
  const selectPair = useApp((s) => s.selectPair);
  const names = shortPair(comparison.reference.condition, comparison.candidate.condition);
  return (
    <header className="toolbar wrap">
      <h2>Examples</h2>
      <ExperimentPicker />
      <PairPicker report={report} pair={pair} onChange={selectPair} />
      {names.shared ? (
        <span className="muted small label-cut" title={names.shared}>
          {names.shared}
        </span>
      ) : null}
      <span className="muted" data-testid="row-count">
        {searchPending
          ? `preparing search… ${Math.floor((100 * searchPending.done) / Math.max(1, searchPending.total))}%`
          : total === null
            ? '…'
            : counted(total, 'example')}
      </span>
      <span className="spacer" />
      <ColumnChooser columns={columns} hidden={hidden} onChange={onHidden} />
      <button className="secondary" onClick={() => onExport(false)} title="Ctrl+E">
        Export CSV (this view)
      </button>
      <button className="secondary" onClick={() => onExport(true)}>
        Export CSV (all pairs)
      </button>
    </header>
  );
}
