import { useCallback, useEffect, useMemo, useRef } from 'react';
import { request } from '../../api';
import { count, downloadText } from '../../format';
import { shortPair } from '../../../shared/labels';
import { useApp } from '../../store';
import { ensureComparison } from '../../sync';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { PairPicker } from '../comparison/PairPicker';
import { ReferenceNote } from '../comparison/ReferenceNote';
import { ColumnChooser, useHiddenColumns } from './ColumnChooser';
import { pairColumns, type HeaderSort } from './columns';
import { ExampleDetail } from './ExampleDetail';
import { Filters } from './Filters';
import { searchPattern } from './highlight';
import { PairTable } from './PairTable';
import { usePairPages } from './usePairPages';

export function ExamplesView() {
  const loaded = useApp((s) => s.report);
  const pair = useApp((s) => s.pair);
  const selectPair = useApp((s) => s.selectPair);
  const filter = useApp((s) => s.filter);
  const filterEpoch = useApp((s) => s.filterEpoch);
  const toast = useApp((s) => s.toast);
  const experimentId = useApp((s) => s.experimentId);
  const sort = useApp((s) => s.sort);
  const setSort = useApp((s) => s.setSort);
  const exampleId = useApp((s) => s.exampleId);
  const selectExample = useApp((s) => s.selectExample);
  const [hidden, setHidden] = useHiddenColumns();
  const searchRef = useRef<HTMLInputElement>(null);
  const comparison = loaded?.report.comparisons[pair];
  const criteria = useMemo(
    () =>
      comparison?.criteria.map((c) => ({ field: c.field, direction: c.direction, kind: c.kind })) ??
      [],
    [comparison],
  );
  const search = useMemo(
    () => ({ text: searchPattern(filter.search), id: searchPattern(filter.search, true) }),
    [filter.search],
  );
  const columns = useMemo(() => pairColumns(criteria, search), [criteria, search]);
  const { rows, total, loading, loadMore, searchPending } = usePairPages(
    loaded?.key ?? null,
    pair,
    filter,
    sort,
  );

  useEffect(() => {
    if (experimentId && !loaded) void ensureComparison();
  }, [experimentId, loaded]);
  // The picked example, by id (the address holds it); none picked shows the first row.
  const selected = useMemo(() => {
    if (exampleId === null) return 0;
    for (let i = 0; i < rows.length; i++) if (rows.at(i)?.example_id === exampleId) return i;
    return -1;
  }, [rows, exampleId]);
  const select = useCallback(
    (index: number) => selectExample(rows.at(index)?.example_id ?? null),
    [rows, selectExample],
  );
  const move = (delta: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, Math.max(0, selected) + delta));
    select(next);
  };

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
    (key: HeaderSort) => {
      const same =
        key.key === sort.key && (key.key !== 'delta' || key.criterion === sort.criterion);
      setSort({
        key: key.key,
        ...(key.criterion !== undefined ? { criterion: key.criterion } : {}),
        descending: same ? !sort.descending : key.firstDescending,
      });
    },
    [sort, setSort],
  );

  if (!loaded || !comparison)
    return (
      <p className="muted pad" role="status">
        Preparing the comparison…
      </p>
    );
  const current = exampleId ?? rows.at(0)?.example_id ?? null;
  const names = shortPair(comparison.reference.condition, comparison.candidate.condition);
  return (
    <section className="examples">
      <header className="toolbar wrap">
        <h2>Examples</h2>
        <ExperimentPicker />
        <PairPicker report={loaded.report} pair={pair} onChange={selectPair} />
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
              : `${count(total)} examples`}
        </span>
        <span className="spacer" />
        <ColumnChooser columns={columns} hidden={hidden} onChange={setHidden} />
        <button className="secondary" onClick={() => void exportCsv(false)} title="Ctrl+E">
          Export CSV (this view)
        </button>
        <button className="secondary" onClick={() => void exportCsv(true)}>
          Export CSV (all pairs)
        </button>
      </header>
      <ReferenceNote report={loaded.report} />
      <Filters key={filterEpoch} criteria={criteria.map((c) => c.field)} searchRef={searchRef} />
      <div className="explorer">
        <PairTable
          rows={rows}
          total={total}
          loading={loading}
          columns={columns}
          hidden={hidden}
          sort={sort}
          selected={selected}
          onSelect={select}
          onHeaderClick={headerClick}
          loadMore={loadMore}
        />
        <div className="detail-pane" tabIndex={-1}>
          {current ? (
            <ExampleDetail
              reportKey={loaded.key}
              pair={pair}
              exampleId={current}
              search={filter.search}
            />
          ) : (
            <p className="muted pad">Select an example.</p>
          )}
        </div>
      </div>
    </section>
  );
}
