import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { request } from '../../api';
import { count, downloadText } from '../../format';
import { useApp } from '../../store';
import { ensureComparison } from '../../sync';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { ReferenceNote } from '../comparison/ReferenceNote';
import { pairColumns } from './columns';
import { ExampleDetail } from './ExampleDetail';
import { Filters } from './Filters';
import { PairTable } from './PairTable';
import { usePairPages, type SortKey } from './usePairPages';

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
  const searchRef = useRef<HTMLInputElement>(null);
  const comparison = loaded?.report.comparisons[pair];
  const criteria = useMemo(() => comparison?.criteria.map((c) => c.field) ?? [], [comparison]);
  const columns = useMemo(() => pairColumns(criteria), [criteria]);
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
  // The selection belongs to the view it was made in: another filter, sort or pair starts at
  // the first row again.
  const view = JSON.stringify([filter, sort, descending, pair]);
  const [selection, setSelection] = useState({ view, index: 0 });
  const selected = selection.view === view ? selection.index : 0;
  const select = useCallback((index: number) => setSelection({ view, index }), [view]);
  const move = (delta: number) =>
    setSelection((s) => ({
      view,
      index: Math.max(0, Math.min(rows.length - 1, (s.view === view ? s.index : 0) + delta)),
    }));

  const exportCsv = async (all: boolean) => {
    if (!loaded) return;
    try {
      const file = await request(
        'export:examplesCsv',
        all ? { reportKey: loaded.key } : { reportKey: loaded.key, pair, filter },
      );
      downloadText(file.filename, file.content);
      toast('info', `Exported ${count(file.examples)} examples to ${file.filename}.`);
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
        move(1);
      } else if (event.key === 'k' || event.key === 'ArrowUp') {
        event.preventDefault();
        move(-1);
      } else if (event.key === 'Enter') {
        document.querySelector<HTMLElement>('[data-testid="example-detail"]')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const headerClick = useCallback(
    (key: SortKey) => {
      if (key === sort) setDescending((d) => !d);
      else {
        setSort(key);
        setDescending(key !== 'example_id');
      }
    },
    [sort],
  );

  if (!loaded || !comparison)
    return (
      <p className="muted pad" role="status">
        Preparing the comparison…
      </p>
    );
  const current = rows.at(selected);
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
      <ReferenceNote report={loaded.report} />
      <Filters key={filterEpoch} criteria={criteria} searchRef={searchRef} />
      <div className="explorer">
        <PairTable
          rows={rows}
          total={total}
          loading={loading}
          columns={columns}
          sort={sort}
          descending={descending}
          selected={selected}
          onSelect={select}
          onHeaderClick={headerClick}
          loadMore={loadMore}
        />
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
