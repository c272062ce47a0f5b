import type { ReactNode } from 'react';
import { plain } from '../../format';
import type { PairRow, SortKey } from './usePairPages';

/** One column of the explorer grid: its header, its width and how a row's cell reads. */
export interface PairColumn {
  id: string;
  header: string;
  width: number;
  /** Set when the server can sort by this column (a header click then sorts). */
  sort?: SortKey;
  cell(row: PairRow): ReactNode;
}

function yesNo(value: boolean, side: PairRow['side']): string {
  return side === 'both' ? (value ? 'yes' : 'no') : '—';
}

/** Far more than the widest column shows, so the ellipsis falls where it did with the whole text. */
const CELL_CHARS = 300;

function cellText(text: string): string {
  return text.length > CELL_CHARS ? text.slice(0, CELL_CHARS) : text;
}

function criterionColumn(criterion: string): PairColumn {
  return {
    id: `criterion:${criterion}`,
    header: criterion,
    width: 170,
    cell: (row) => {
      const v = row.values[criterion];
      const cls = row.classes[criterion] ?? 'not_comparable';
      return (
        <span className={`class class-${cls}`} title={cls.replace('_', ' ')}>
          {plain(v?.reference)} → {plain(v?.candidate)}
        </span>
      );
    },
  };
}

export function pairColumns(criteria: readonly string[]): PairColumn[] {
  return [
    {
      id: 'example_id',
      header: 'Example',
      width: 150,
      sort: 'example_id',
      cell: (row) => <span className="mono">{row.example_id}</span>,
    },
    {
      id: 'input',
      header: 'Input',
      width: 360,
      // The cell shows one line cut by an ellipsis; laying out a long input in full only to
      // hide it cost most of a scroll frame. The detail pane shows the whole text.
      cell: (row) => <span className="ellipsis">{cellText(row.input)}</span>,
    },
    ...criteria.map(criterionColumn),
    {
      id: 'output_changed',
      header: 'Output changed',
      width: 120,
      sort: 'output_changed',
      cell: (row) => yesNo(row.output_changed, row.side),
    },
    {
      id: 'behavior_changed',
      header: 'Behaviour changed',
      width: 130,
      sort: 'behavior_changed',
      cell: (row) => yesNo(row.behavior_changed, row.side),
    },
    {
      id: 'side',
      header: 'In',
      width: 150,
      cell: (row) =>
        (row.side === 'both' ? 'both' : `${row.side} only`) +
        (row.input_mismatch ? ' · input differs' : ''),
    },
  ];
}
