import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import type { PairColumn } from './columns';
import type { RowPages } from './rowPages';
import type { PairRow, SortKey } from './usePairPages';

const ROW_HEIGHT = 30;
/** Ask for the next page while this many loaded rows are still below the view. */
const PREFETCH_ROWS = 40;
/** Rows rendered beyond each edge of the view: enough for a wheel step, few enough to paint. */
const OVERSCAN = 8;
/**
 * Rows are keyed by slot, not by index: the rows in view are consecutive and fewer than this,
 * so slots never collide, and a row scrolled out hands its DOM to the row scrolled in, which
 * React updates in place instead of removing one row and building another.
 */
const SLOTS = 512;

interface RowProps {
  row: PairRow;
  index: number;
  start: number;
  selected: boolean;
  template: string;
  columns: PairColumn[];
  onSelect(index: number): void;
}

/**
 * One grid row. Memoized on its props: a scroll re-renders only the rows that came into view,
 * and a page arriving below the view re-renders none of them.
 */
const GridRow = memo(function GridRow({
  row,
  index,
  start,
  selected,
  template,
  columns,
  onSelect,
}: RowProps) {
  return (
    <div
      role="row"
      aria-selected={selected}
      className={selected ? 'vrow selected' : 'vrow'}
      style={{
        gridTemplateColumns: template,
        transform: `translateY(${start}px)`,
        height: ROW_HEIGHT,
      }}
      onClick={() => onSelect(index)}
    >
      {columns.map((c) => (
        <div key={c.id} role="gridcell" className="vcell">
          {c.cell(row)}
        </div>
      ))}
    </div>
  );
});

export interface PairTableProps {
  rows: RowPages<PairRow>;
  total: number | null;
  loading: boolean;
  columns: PairColumn[];
  sort: SortKey;
  descending: boolean;
  selected: number;
  onSelect(index: number): void;
  onHeaderClick(column: PairColumn): void;
  loadMore(): void;
}

/**
 * The virtualized grid of pair rows. It owns the scroll state, so scrolling re-renders this
 * grid alone, never the filters or the detail pane beside it; only the rows in view (plus the
 * overscan) are ever rendered, whatever the number loaded.
 */
export const PairTable = memo(function PairTable({
  rows,
  total,
  loading,
  columns,
  sort,
  descending,
  selected,
  onSelect,
  onHeaderClick,
  loadMore,
}: PairTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const items = virtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= rows.length - PREFETCH_ROWS && total !== null && rows.length < total)
      loadMore();
  }, [lastIndex, rows.length, total, loadMore]);
  useEffect(() => virtual.scrollToIndex(selected, { align: 'auto' }), [selected, virtual]);

  const template = columns.map((c) => `${c.width}px`).join(' ');
  return (
    <div
      className="table-pane"
      role="grid"
      aria-rowcount={total ?? rows.length}
      aria-label="Example pairs"
    >
      <div className="vrow vhead" style={{ gridTemplateColumns: template }} role="row">
        {columns.map((c) => (
          <div
            key={c.id}
            role="columnheader"
            className={c.sort ? 'vcell sortable' : 'vcell'}
            aria-sort={
              c.sort && c.sort === sort ? (descending ? 'descending' : 'ascending') : undefined
            }
            onClick={() => onHeaderClick(c)}
          >
            {c.header}
            {c.sort && c.sort === sort ? (descending ? ' ▾' : ' ▴') : ''}
          </div>
        ))}
      </div>
      <div ref={scrollRef} className="vbody" tabIndex={0}>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows.at(item.index);
            if (!row) return null;
            return (
              <GridRow
                key={item.index % SLOTS}
                row={row}
                index={item.index}
                start={item.start}
                selected={item.index === selected}
                template={template}
                columns={columns}
                onSelect={onSelect}
              />
            );
          })}
        </div>
        {rows.length === 0 && !loading ? (
          <p className="muted pad">No examples match these filters.</p>
        ) : null}
      </div>
    </div>
  );
});
