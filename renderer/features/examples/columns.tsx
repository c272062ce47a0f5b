import { createColumnHelper } from '@tanstack/react-table';
import { numericValue, passValue } from '../../../shared/compare/criteria';
import type { Direction, JsonValue } from '../../../shared/model';
import { counted, plain } from '../../format';
import type { ExamplesSort } from '../../store/workbench';
import { excerpt, highlight } from './highlight';
import { afterOpening } from '../../../shared/input-opening';
import { UNAVAILABLE_TEXT } from './unavailable';
import type { PairRow } from './usePairPages';

/** A sort a header click asks for, and the order its first click shows. */
export interface HeaderSort {
  key: ExamplesSort['key'];
  criterion?: string;
  /** The first click's order: regressions first for a criterion, "yes" first for a flag. */
  firstDescending: boolean;
}

declare module '@tanstack/react-table' {
  // As for ColumnMeta below: TanStack's extension point, whose type parameter must match its.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TableMeta<TData> {
    /** How many characters an input cell holds, for the input column's width (`inputChars`). */
    inputChars?: number;
    /** What the inputs start with, left out of their cells (`sharedOpening`). */
    inputOpening?: string;
  }

  // TanStack's own extension point for per-column data; the type parameters must match its.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** Set when the server can sort by this column (a header click then sorts). */
    sort?: HeaderSort;
    /** The header's full text, shown on hover where the header is cut. */
    title?: string;
    /** The text a row's cell shows, measured to give the column the width of its content. */
    text?: (row: TData) => string;
    /** Texts the column can show whatever rows are loaded, measured with theirs. */
    widest?: string[];
    /** The column takes the width the others leave (its `size` is its least). */
    flex?: boolean;
    /** Cells in the monospaced face. */
    mono?: boolean;
  }
}

const column = createColumnHelper<PairRow>();

function yesNo(value: boolean, side: PairRow['side']): string {
  return side === 'both' ? (value ? 'yes' : 'no') : '—';
}

function openingTitle(opening: string): string {
  return `Starts with the ${counted(opening.length, 'character')} every input listed starts with, left out here; the detail pane shows the whole input.`;
}

/** Characters an input cell holds where its width is not known. */
const CELL_CHARS = 300;
/**
 * Narrower than any character the cut counts (`cutEnd`), in the cell's 13 px face: the narrowest
 * in common UI faces, Arial's apostrophe, is ~2.5 px; letters such as i or l are ~2.9 px.
 */
const NARROWEST_PX = 2.2;

/**
 * The characters an input cell of this width holds: enough that a cut text still overflows the
 * cell wherever the whole text would, so its ellipsis falls where the whole text's did. Laying
 * out and painting the 300 characters a cell held before, for a column that shows ~50, was a
 * sixth of the frame that shows a new page of rows; and 300 narrow ones left a wide column short.
 */
export function inputChars(width: number): number {
  return Math.ceil(width / NARROWEST_PX) + 1;
}

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

/** Which runs hold the example, in a few letters; the cell's title says it in full. */
const SIDE_SHORT: Record<PairRow['side'], string> = {
  both: 'both',
  reference: 'ref. only',
  candidate: 'cand. only',
};

function sideText(row: PairRow): string {
  return SIDE_SHORT[row.side] + (row.input_mismatch ? ' ≠' : '');
}

function sideTitle(row: PairRow): string {
  const where = row.side === 'both' ? 'in both runs' : `in the ${row.side} run only`;
  return row.input_mismatch ? `${where}; the input differs between the runs` : where;
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

/** A criterion's cell as it reads: reference → candidate, and the difference when there is one. */
function criterionText(row: PairRow, criterion: GridCriterion): { values: string; delta: string } {
  const v = row.values[criterion.field];
  const delta = rowDelta(row, criterion);
  return {
    values: `${plain(v?.reference)} → ${plain(v?.candidate)}`,
    delta: delta !== null && delta !== 0 ? ` (${signedShort(delta)})` : '',
  };
}

function criterionColumn(criterion: GridCriterion) {
  const { field } = criterion;
  return column.display({
    id: `criterion:${field}`,
    header: field,
    size: 120,
    minSize: 64,
    maxSize: 240,
    meta: {
      text: (row) => {
        const { values, delta } = criterionText(row, criterion);
        return values + delta;
      },
      title: `${field}: reference → candidate (difference). Click to sort by the difference, largest regressions first.`,
      sort: {
        key: 'delta',
        criterion: field,
        // Regressions first: the largest drops of a higher-is-better field, rises of a lower one.
        firstDescending: criterion.direction !== 'higher_is_better',
      },
    },
    cell: ({ row }) => {
      const cls = row.original.classes[field] ?? 'not_comparable';
      const { values, delta } = criterionText(row.original, criterion);
      return (
        <span className={`class class-${cls}`} title={`${cls.replace('_', ' ')}: ${values}`}>
          {values}
          {delta ? <span className="delta">{delta}</span> : null}
        </span>
      );
    },
  });
}

/**
 * The grid's columns: each one's header, how a row's cell reads, and how wide it may be: a column
 * takes the width of its content between `minSize` and `maxSize` (`size` until measured); the
 * input takes what the others leave, at least its `size`.
 */
export function pairColumns(
  criteria: readonly (string | GridCriterion)[],
  search?: { text: RegExp | null; id: RegExp | null },
) {
  const grid = criteria.map((c) => (typeof c === 'string' ? { field: c, direction: null } : c));
  return [
    column.accessor('example_id', {
      header: 'Example',
      size: 110,
      minSize: 72,
      maxSize: 220,
      meta: {
        sort: { key: 'example_id', firstDescending: false },
        text: (row) => row.example_id,
        mono: true,
      },
      cell: (c) => (
        <span className="mono" title={c.getValue()}>
          {highlight(c.getValue(), search?.id ?? null)}
        </span>
      ),
    }),
    column.accessor('input', {
      header: 'Input',
      size: 200,
      meta: { flex: true },
      // The cell shows one line cut by an ellipsis; laying out a long input in full only to
      // hide it cost most of a scroll frame. The detail pane shows the whole text.
      cell: (c) => {
        const reason = c.row.original.input_unavailable;
        if (reason)
          return (
            <span className="ellipsis cell-unavailable" title={UNAVAILABLE_TEXT[reason]}>
              {UNAVAILABLE_TEXT[reason]}
            </span>
          );
        const pattern = search?.text ?? null;
        const opening = c.table.options.meta?.inputOpening ?? '';
        const shown = afterOpening(c.getValue(), opening, pattern);
        const chars = c.table.options.meta?.inputChars ?? CELL_CHARS;
        return (
          <span className="ellipsis" title={shown.cut ? openingTitle(opening) : undefined}>
            {shown.cut ? '… ' : ''}
            {highlight(excerpt(shown.text, pattern, chars), pattern)}
          </span>
        );
      },
    }),
    ...grid.map(criterionColumn),
    column.accessor('output_changed', {
      header: 'Output changed',
      size: 80,
      minSize: 48,
      maxSize: 160,
      meta: { sort: { key: 'output_changed', firstDescending: true }, widest: ['yes', 'no'] },
      cell: (c) => yesNo(c.getValue(), c.row.original.side),
    }),
    column.accessor('behavior_changed', {
      header: 'Behaviour changed',
      size: 90,
      minSize: 48,
      maxSize: 160,
      meta: { sort: { key: 'behavior_changed', firstDescending: true }, widest: ['yes', 'no'] },
      cell: (c) => yesNo(c.getValue(), c.row.original.side),
    }),
    column.accessor('side', {
      header: 'In',
      size: 80,
      minSize: 48,
      maxSize: 140,
      meta: { text: sideText, widest: ['both', 'ref. only'] },
      cell: (c) => <span title={sideTitle(c.row.original)}>{sideText(c.row.original)}</span>,
    }),
  ];
}

export type PairColumn = ReturnType<typeof pairColumns>[number];

/** The id TanStack gives a column: its `id`, else its accessor key. */
export function columnId(c: PairColumn): string {
  return c.id ?? (c as { accessorKey?: string }).accessorKey ?? '';
}
