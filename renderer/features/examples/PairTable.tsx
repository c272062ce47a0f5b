import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type Column,
  type Header,
  type Row,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { ExamplesSort } from '../../store/workbench';
import { fitWidths } from './columnFit';
import { ColumnCueBar, ColumnShades } from './ColumnCue';
import { inputChars, type HeaderSort, type PairColumn } from './columns';
import { BreakableText } from '../../components/BreakableText';
import type { RowPages } from './rowPages';
import type { SizedColumn } from './useColumnWidths';
import { useLoadAhead, type PairRow } from './usePairPages';
import { useOverscanShown } from './useOverscanShown';

const ROW_HEIGHT = 30;
/** The header holds two lines, so a two-word header wraps instead of widening its column. */
const HEADER_HEIGHT = 40;
/** Rows rendered beyond each edge of the view: enough for a wheel step, few enough to paint. */
const OVERSCAN = 8;

interface RowProps {
  row: Row<PairRow>;
  index: number;
  selected: boolean;
  template: string;
  /** The table's columns: a change of columns re-renders the row even if its data is the same. */
  columns: Column<PairRow>[];
  onSelect(index: number): void;
}

/**
 * The table model is rebuilt over the window whenever the window moves, so a row's Row object is
 * new on every scroll step; what it shows is not. Rows are compared by the data they show.
 */
function sameRow(a: RowProps, b: RowProps): boolean {
  return (
    a.row.original === b.row.original &&
    a.index === b.index &&
    a.selected === b.selected &&
    a.template === b.template &&
    a.columns === b.columns &&
    a.onSelect === b.onSelect
  );
}

/**
 * One grid row. Memoized on what it shows: a scroll re-renders only the rows that came into
 * view, and a page arriving below the view re-renders none of them.
 */
const GridRow = memo(function GridRow({ row, index, selected, template, onSelect }: RowProps) {
  return (
    <div
      role="row"
      aria-selected={selected}
      className={selected ? 'vrow selected' : 'vrow'}
      style={{ gridTemplateColumns: template, height: ROW_HEIGHT }}
      onClick={() => onSelect(index)}
    >
      {row.getVisibleCells().map((cell) => (
        <div key={cell.column.id} role="gridcell" className="vcell">
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </div>
      ))}
    </div>
  );
}, sameRow);

interface HeaderRowProps {
  headers: Header<PairRow, unknown>[];
  template: string;
  /** The sort the headers show: a change re-renders them, a scroll does not. */
  sort: ExamplesSort;
  onHeaderClick(sort: HeaderSort): void;
}

function sortedBy(sort: ExamplesSort, key: HeaderSort | undefined): boolean {
  return !!key && key.key === sort.key && (key.key !== 'delta' || key.criterion === sort.criterion);
}

/**
 * The header row, sticky at the top of the scroller that holds the rows: it scrolls sideways
 * with them and stays in view as they scroll down. Sortable headers are buttons.
 */
const HeaderRow = memo(function HeaderRow({
  headers,
  template,
  sort,
  onHeaderClick,
}: HeaderRowProps) {
  return (
    <div
      className="vrow vhead"
      style={{ gridTemplateColumns: template, height: HEADER_HEIGHT }}
      role="row"
    >
      {headers.map((header) => {
        const key = header.column.columnDef.meta?.sort;
        const title = header.column.columnDef.meta?.title;
        const def = header.column.columnDef.header;
        const label =
          typeof def === 'string' ? (
            <BreakableText text={def} />
          ) : (
            flexRender(def, header.getContext())
          );
        const active = sortedBy(sort, key);
        const arrow = active ? (sort.descending ? ' ▾' : ' ▴') : '';
        return (
          <div
            key={header.id}
            role="columnheader"
            className="vcell"
            aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
            title={
              title ??
              (typeof header.column.columnDef.header === 'string'
                ? header.column.columnDef.header
                : undefined)
            }
          >
            {key ? (
              <button className="sort-head" onClick={() => onHeaderClick(key)}>
                {label}
                {arrow}
              </button>
            ) : (
              <span className="head-label">{label}</span>
            )}
          </div>
        );
      })}
    </div>
  );
});

export interface PairTableProps {
  /** The pane's id, which the splitter beside it names. */
  id: string;
  rows: RowPages<PairRow>;
  /** What the inputs start with, left out of the input cells (rows of a new query bring it). */
  opening: string;
  total: number | null;
  loading: boolean;
  columns: PairColumn[];
  /** The visible columns with the widths their content needs, in order. */
  sized: SizedColumn[];
  /** Columns the researcher hid (by column id). */
  hidden: VisibilityState;
  sort: ExamplesSort;
  selected: number;
  onSelect(index: number): void;
  /** A click on the header of a column the server can sort by. */
  onHeaderClick(sort: HeaderSort): void;
  loadMore(): void;
}

/** The server's sort as the table's sorting state, which only marks the sorted header. */
function tableSorting(sort: ExamplesSort) {
  return [
    {
      id: sort.key === 'delta' ? `criterion:${sort.criterion ?? ''}` : sort.key,
      desc: sort.descending,
    },
  ];
}

/** The view from the scroller: its visible width (without the scrollbar) and its sideways scroll. */
function readView(element: HTMLElement) {
  return (v: { left: number; width: number }) =>
    v.left === element.scrollLeft && v.width === element.clientWidth
      ? v
      : { left: element.scrollLeft, width: element.clientWidth };
}

/**
 * The virtualized grid of pair rows. It owns the scroll state, so scrolling re-renders this
 * grid alone, never the filters or the detail pane beside it; only the rows in view (plus the
 * overscan) are ever rendered, whatever the number loaded. The TanStack table that lays out the
 * columns, headers and cells holds those rows alone: a table model over every loaded row cost
 * most of a second per page once thousands were loaded.
 */
// eslint-disable-next-line max-lines-per-function -- TanStack's table and virtualizer hooks must live in the component that renders their rows: moved into a hook or a child, React Compiler can no longer keep the grid memoized
export const PairTable = memo(function PairTable(props: PairTableProps) {
  const {
    rows,
    opening,
    total,
    loading,
    columns,
    sized,
    hidden,
    sort,
    selected,
    onSelect,
    onHeaderClick,
  } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ left: 0, width: 0 });
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const read = () => setView(readView(element));
    const observer = new ResizeObserver(read);
    observer.observe(element);
    element.addEventListener('scroll', read, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', read);
    };
  }, []);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    // The sticky header sits above the rows inside the same scroller.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    // A scroll's rows render in a task of their own, not inside the scroll event: the event's
    // task already holds the frame's style, layout and paint, and both together made one task
    // over 50 ms.
    useFlushSync: false,
  });
  const overscanShown = useOverscanShown(rows.at(0));
  const withOverscan = virtual.getVirtualItems();
  // Read after the items: they are what computes the range in view.
  const inView = virtual.range;
  const items = overscanShown
    ? withOverscan
    : withOverscan.filter(
        (item) =>
          inView !== null && item.index >= inView.startIndex && item.index <= inView.endIndex,
      );
  const first = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? 0;
  const end = items.length === 0 ? 0 : lastIndex + 1;
  const windowRows = useMemo(() => rows.slice(first, end), [rows, first, end]);
  const sorting = useMemo(() => tableSorting(sort), [sort]);
  // Header and rows share one template of whole pixels, so their columns stay level.
  const widths = fitWidths(sized, view.width);
  const flexAt = sized.findIndex((c) => c.flex);
  const table = useReactTable({
    data: windowRows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (_row, i) => String(first + i),
    // The server sorts; the table only reports the sort on its headers.
    manualSorting: true,
    state: { sorting, columnVisibility: hidden },
    meta: { inputChars: inputChars(widths[flexAt] ?? 0), inputOpening: opening },
  });
  useLoadAhead(lastIndex, rows.length, total, props.loadMore);
  useEffect(() => {
    if (selected >= 0) virtual.scrollToIndex(selected, { align: 'auto' });
  }, [selected, virtual]);

  const leafColumns = table.getVisibleLeafColumns();
  const template = widths.map((w) => `${w}px`).join(' ');
  const tableRows = table.getRowModel().rows;
  const windowTop = (items[0]?.start ?? HEADER_HEIGHT) - HEADER_HEIGHT;
  return (
    <div
      id={props.id}
      className="table-pane"
      role="grid"
      aria-rowcount={total ?? rows.length}
      aria-label="Example pairs"
    >
      <ColumnCueBar
        widths={widths}
        left={view.left}
        width={view.width}
        onScrollTo={(left) => scrollRef.current?.scrollTo({ left, behavior: 'smooth' })}
      />
      <div className="table-scroll">
        <div ref={scrollRef} className="vbody" tabIndex={0}>
          {table.getHeaderGroups().map((group) => (
            <HeaderRow
              key={group.id}
              headers={group.headers}
              template={template}
              sort={sort}
              onHeaderClick={onHeaderClick}
            />
          ))}
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {/* The rows in view lie one after another in a window moved as a whole: a row placed
                on its own (a transform each) is restyled whenever it moves, and Chromium's cost
                of styling rows at ever new offsets grew with every step until its next garbage
                collection, up to 30 ms a frame. */}
            <div className="vwindow" style={{ transform: `translateY(${windowTop}px)` }}>
              {items.map((item) => {
                const row = tableRows[item.index - first];
                if (!row) return null;
                return (
                  <GridRow
                    key={item.index}
                    row={row}
                    index={item.index}
                    selected={item.index === selected}
                    template={template}
                    columns={leafColumns}
                    onSelect={onSelect}
                  />
                );
              })}
            </div>
          </div>
          {rows.length === 0 && !loading ? (
            <p className="muted pad">No examples match these filters.</p>
          ) : null}
        </div>
        <ColumnShades widths={widths} left={view.left} width={view.width} />
      </div>
    </div>
  );
});
