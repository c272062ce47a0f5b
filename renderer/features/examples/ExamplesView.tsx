import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { request } from '../../api';
import { count, downloadText, plain } from '../../format';
import { useApp } from '../../store';
import { ensureComparison } from '../../sync';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { ExampleDetail } from './ExampleDetail';
import { Filters } from './Filters';
import { usePairPages, type PairRow, type SortKey } from './usePairPages';

const column = createColumnHelper<PairRow>();
const sortable: Record<string, SortKey> = {
  example_id: 'example_id',
  output_changed: 'output_changed',
  behavior_changed: 'behavior_changed',
};

function yesNo(value: boolean, side: PairRow['side']): string {
  return side === 'both' ? (value ? 'yes' : 'no') : '—';
}

export function ExamplesView() {
  const loaded = useApp((s) => s.report);
  const pair = useApp((s) => s.pair);
  const selectPair = useApp((s) => s.selectPair);
  const filter = useApp((s) => s.filter);
  const filterEpoch = useApp((s) => s.filterEpoch);
  const toast = useApp((s) => s.toast);
  const experimentId = useApp((s) => s.experimentId);
  const [sort, setSort] = useState<SortKey>('example_id');
  const [descending, setDescending] = useState(false);
  const [selected, setSelected] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const comparison = loaded?.report.comparisons[pair];
  const criteria = useMemo(() => comparison?.criteria.map((c) => c.field) ?? [], [comparison]);
  const { rows, total, loading, loadMore } = usePairPages(
    loaded?.key ?? null,
    pair,
    filter,
    sort,
    descending,
  );

  useEffect(() => {
    if (experimentId && !loaded) void ensureComparison();
  }, [experimentId, loaded]);
  useEffect(() => setSelected(0), [filter, sort, descending, pair]);

  const columns = useMemo(
    () => [
      column.accessor('example_id', {
        header: 'Example',
        cell: (c) => <span className="mono">{c.getValue()}</span>,
        size: 150,
      }),
      column.accessor('input', {
        header: 'Input',
        cell: (c) => <span className="ellipsis">{c.getValue()}</span>,
        size: 360,
      }),
      ...criteria.map((criterion) =>
        column.display({
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
        }),
      ),
      column.accessor('output_changed', {
        header: 'Output changed',
        cell: (c) => yesNo(c.getValue(), c.row.original.side),
        size: 120,
      }),
      column.accessor('behavior_changed', {
        header: 'Behaviour changed',
        cell: (c) => yesNo(c.getValue(), c.row.original.side),
        size: 130,
      }),
      column.accessor('side', {
        header: 'In',
        cell: (c) =>
          (c.getValue() === 'both' ? 'both' : `${c.getValue()} only`) +
          (c.row.original.input_mismatch ? ' · input differs' : ''),
        size: 150,
      }),
    ],
    [criteria],
  );
  // TanStack Table hands back a mutable instance the React compiler cannot memoize; this
  // component re-renders from its own state, which is all the table needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
  });
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 30,
    overscan: 20,
  });
  const items = virtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= rows.length - 40 && total !== null && rows.length < total) loadMore();
  }, [lastIndex, rows.length, total, loadMore]);

  const exportCsv = async (all: boolean) => {
    if (!loaded) return;
    try {
      const file = await request(
        'export:examplesCsv',
        all ? { reportKey: loaded.key } : { reportKey: loaded.key, pair, filter },
      );
      downloadText(file.filename, file.content);
      toast('info', `Exported ${count(file.rows)} rows to ${file.filename}.`);
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      const typing =
        target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA';
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        searchRef.current?.focus();
        return;
      }
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'e') {
        event.preventDefault();
        void exportCsv(false);
        return;
      }
      if (typing) return;
      if (event.key === 'j' || event.key === 'ArrowDown') {
        event.preventDefault();
        setSelected((s) => Math.min(rows.length - 1, s + 1));
      } else if (event.key === 'k' || event.key === 'ArrowUp') {
        event.preventDefault();
        setSelected((s) => Math.max(0, s - 1));
      } else if (event.key === 'Enter') {
        document.querySelector<HTMLElement>('[data-testid="example-detail"]')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  useEffect(() => virtual.scrollToIndex(selected, { align: 'auto' }), [selected, virtual]);

  const headerClick = (id: string) => {
    const key = sortable[id];
    if (!key) return;
    if (key === sort) setDescending((d) => !d);
    else {
      setSort(key);
      setDescending(key !== 'example_id');
    }
  };

  if (!loaded || !comparison)
    return (
      <p className="muted pad" role="status">
        Preparing the comparison…
      </p>
    );
  const current = rows[selected];
  const widths = table.getFlatHeaders().map((h) => h.getSize());
  const template = widths.map((w) => `${w}px`).join(' ');
  return (
    <section className="examples">
      <header className="toolbar">
        <h2>Examples</h2>
        <ExperimentPicker />
        <select aria-label="Pair" value={pair} onChange={(e) => selectPair(Number(e.target.value))}>
          {loaded.report.comparisons.map((c, i) => (
            <option key={`${c.candidate.condition}-${c.reference.condition}`} value={i}>
              {c.candidate.condition} vs {c.reference.condition}
            </option>
          ))}
        </select>
        <span className="muted" data-testid="row-count">
          {total === null ? '…' : `${count(total)} examples`}
        </span>
        <span className="spacer" />
        <button className="secondary" onClick={() => void exportCsv(false)} title="Ctrl+E">
          Export CSV (this view)
        </button>
        <button className="secondary" onClick={() => void exportCsv(true)}>
          Export CSV (all pairs)
        </button>
      </header>
      <Filters key={filterEpoch} criteria={criteria} searchRef={searchRef} />
      <div className="explorer">
        <div
          className="table-pane"
          role="grid"
          aria-rowcount={total ?? rows.length}
          aria-label="Example pairs"
        >
          <div className="vrow vhead" style={{ gridTemplateColumns: template }} role="row">
            {table.getFlatHeaders().map((h) => (
              <div
                key={h.id}
                role="columnheader"
                className={sortable[h.id] ? 'vcell sortable' : 'vcell'}
                aria-sort={
                  sortable[h.id] === sort ? (descending ? 'descending' : 'ascending') : undefined
                }
                onClick={() => headerClick(h.id)}
              >
                {flexRender(h.column.columnDef.header, h.getContext())}
                {sortable[h.id] === sort ? (descending ? ' ▾' : ' ▴') : ''}
              </div>
            ))}
          </div>
          <div ref={scrollRef} className="vbody" tabIndex={0}>
            <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const row = table.getRowModel().rows[item.index];
                if (!row) return null;
                return (
                  <div
                    key={row.id}
                    role="row"
                    aria-selected={item.index === selected}
                    className={item.index === selected ? 'vrow selected' : 'vrow'}
                    style={{
                      gridTemplateColumns: template,
                      transform: `translateY(${item.start}px)`,
                      height: item.size,
                    }}
                    onClick={() => setSelected(item.index)}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <div key={cell.id} role="gridcell" className="vcell">
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
            {rows.length === 0 && !loading ? (
              <p className="muted pad">No examples match these filters.</p>
            ) : null}
          </div>
        </div>
        <div className="detail-pane" tabIndex={-1}>
          {current ? (
            <ExampleDetail reportKey={loaded.key} pair={pair} exampleId={current.example_id} />
          ) : (
            <p className="muted pad">Select an example.</p>
          )}
        </div>
      </div>
    </section>
  );
}
