import { createColumnHelper } from '@tanstack/react-table';
import { plain } from '../../format';
import type { PairRow, SortKey } from './usePairPages';

declare module '@tanstack/react-table' {
  // TanStack's own extension point for per-column data; the type parameters must match its.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** Set when the server can sort by this column (a header click then sorts). */
    sort?: SortKey;
  }
}

const column = createColumnHelper<PairRow>();

function yesNo(value: boolean, side: PairRow['side']): string {
  return side === 'both' ? (value ? 'yes' : 'no') : '—';
}

/** Far more than the widest column shows, so the ellipsis falls where it did with the whole text. */
const CELL_CHARS = 300;

function cellText(text: string): string {
  return text.length > CELL_CHARS ? text.slice(0, CELL_CHARS) : text;
}

function criterionColumn(criterion: string) {
  return column.display({
    id: `criterion:${criterion}`,
    header: criterion,
    size: 170,
    cell: ({ row }) => {
      const v = row.original.values[criterion];
      const cls = row.original.classes[criterion] ?? 'not_comparable';
      return (
        <span className={`class class-${cls}`} title={cls.replace('_', ' ')}>
          {plain(v?.reference)} → {plain(v?.candidate)}
        </span>
      );
    },
  });
}

/** The explorer grid's columns: each one's header, width (`size`) and how a row's cell reads. */
export function pairColumns(criteria: readonly string[]) {
  return [
    column.accessor('example_id', {
      header: 'Example',
      size: 150,
      meta: { sort: 'example_id' },
      cell: (c) => <span className="mono">{c.getValue()}</span>,
    }),
    column.accessor('input', {
      header: 'Input',
      size: 360,
      // The cell shows one line cut by an ellipsis; laying out a long input in full only to
      // hide it cost most of a scroll frame. The detail pane shows the whole text.
      cell: (c) => <span className="ellipsis">{cellText(c.getValue())}</span>,
    }),
    ...criteria.map(criterionColumn),
    column.accessor('output_changed', {
      header: 'Output changed',
      size: 120,
      meta: { sort: 'output_changed' },
      cell: (c) => yesNo(c.getValue(), c.row.original.side),
    }),
    column.accessor('behavior_changed', {
      header: 'Behaviour changed',
      size: 130,
      meta: { sort: 'behavior_changed' },
      cell: (c) => yesNo(c.getValue(), c.row.original.side),
    }),
    column.accessor('side', {
      header: 'In',
      size: 150,
      cell: (c) =>
        (c.getValue() === 'both' ? 'both' : `${c.getValue()} only`) +
        (c.row.original.input_mismatch ? ' · input differs' : ''),
    }),
  ];
}

export type PairColumn = ReturnType<typeof pairColumns>[number];
