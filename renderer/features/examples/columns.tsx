import { createColumnHelper } from '@tanstack/react-table';
import { numericValue, passValue } from '../../../shared/compare/criteria';
import type { Direction, JsonValue } from '../../../shared/model';
import { plain } from '../../format';
import type { ExamplesSort } from '../../store/workbench';
import { excerpt, highlight } from './highlight';
import type { PairRow } from './usePairPages';

/** A sort a header click asks for, and the order its first click shows. */
export interface HeaderSort {
  key: ExamplesSort['key'];
  criterion?: string;
  /** The first click's order: regressions first for a criterion, "yes" first for a flag. */
  firstDescending: boolean;
}

declare module '@tanstack/react-table' {
  // TanStack's own extension point for per-column data; the type parameters must match its.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** Set when the server can sort by this column (a header click then sorts). */
    sort?: HeaderSort;
    /** The header's full text, shown on hover where the header is cut. */
    title?: string;
  }
}

const column = createColumnHelper<PairRow>();

function yesNo(value: boolean, side: PairRow['side']): string {
  return side === 'both' ? (value ? 'yes' : 'no') : '—';
}

/** Far more than the widest column shows, so the ellipsis falls where it did with the whole text. */
const CELL_CHARS = 300;

/** A criterion as the grid needs it: its field and the direction that counts as better. */
export interface GridCriterion {
  field: string;
  direction: Direction | null;
  kind?: string;
}

/** A difference to three significant digits with its sign: +0.5, -1, +1.23e+6. */
function signedShort(delta: number): string {
  return `${delta > 0 ? '+' : ''}${Number(delta.toPrecision(3))}`;
}

/** candidate − reference as the core computes it for sorting, or null. */
export function rowDelta(row: PairRow, criterion: GridCriterion): number | null {
  const v = row.values[criterion.field];
  if (!v || row.side !== 'both') return null;
  const read = criterion.kind === 'pass_fail' ? passValue : numericValue;
  const x = read(v.reference as JsonValue);
  const y = read(v.candidate as JsonValue);
  return x === null || y === null ? null : y - x;
}

function criterionColumn(criterion: GridCriterion) {
  const { field } = criterion;
  return column.display({
    id: `criterion:${field}`,
    header: field,
    size: 190,
    meta: {
      title: `${field}: reference → candidate (difference). Click to sort by the difference, largest regressions first.`,
      sort: {
        key: 'delta',
        criterion: field,
        // Regressions first: the largest drops of a higher-is-better field, rises of a lower one.
        firstDescending: criterion.direction !== 'higher_is_better',
      },
    },
    cell: ({ row }) => {
      const v = row.original.values[field];
      const cls = row.original.classes[field] ?? 'not_comparable';
      const delta = rowDelta(row.original, criterion);
      const text = `${plain(v?.reference)} → ${plain(v?.candidate)}`;
      return (
        <span className={`class class-${cls}`} title={`${cls.replace('_', ' ')}: ${text}`}>
          {text}
          {delta !== null && delta !== 0 ? (
            <span className="delta"> ({signedShort(delta)})</span>
          ) : null}
        </span>
      );
    },
  });
}

/** The grid's columns: each one's header, width (`size`) and how a row's cell reads. */
export function pairColumns(
  criteria: readonly (string | GridCriterion)[],
  search?: { text: RegExp | null; id: RegExp | null },
) {
  const grid = criteria.map((c) => (typeof c === 'string' ? { field: c, direction: null } : c));
  return [
    column.accessor('example_id', {
      header: 'Example',
      size: 150,
      meta: { sort: { key: 'example_id', firstDescending: false } },
      cell: (c) => (
        <span className="mono" title={c.getValue()}>
          {highlight(c.getValue(), search?.id ?? null)}
        </span>
      ),
    }),
    column.accessor('input', {
      header: 'Input',
      size: 360,
      // The cell shows one line cut by an ellipsis; laying out a long input in full only to
      // hide it cost most of a scroll frame. The detail pane shows the whole text.
      cell: (c) => (
        <span className="ellipsis">
          {highlight(excerpt(c.getValue(), search?.text ?? null, CELL_CHARS), search?.text ?? null)}
        </span>
      ),
    }),
    ...grid.map(criterionColumn),
    column.accessor('output_changed', {
      header: 'Output changed',
      size: 120,
      meta: { sort: { key: 'output_changed', firstDescending: true } },
      cell: (c) => yesNo(c.getValue(), c.row.original.side),
    }),
    column.accessor('behavior_changed', {
      header: 'Behaviour changed',
      size: 130,
      meta: { sort: { key: 'behavior_changed', firstDescending: true } },
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

/** The id TanStack gives a column: its `id`, else its accessor key. */
export function columnId(c: PairColumn): string {
  return c.id ?? (c as { accessorKey?: string }).accessorKey ?? '';
}
