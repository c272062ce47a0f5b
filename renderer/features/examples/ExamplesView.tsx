import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { ComparisonView } from '../../../shared/report-view';
import { useApp } from '../../store';
import { ensureComparison } from '../../sync';
import { READ_ONLY_TITLE, useReadOnly } from '../../useReadOnly';
import { ReferenceNote } from '../comparison/ReferenceNote';
import { useHiddenColumns } from './ColumnChooser';
import { pairColumns } from './columns';
import { ExampleDetail, type ExampleDetailProps } from './ExampleDetail';
import { ExamplesToolbar } from './ExamplesToolbar';
import { leastWidth } from './columnFit';
import { ExplorerSplitter, useExplorerSplit } from './ExplorerSplitter';
import { Filters } from './Filters';
import { searchPattern } from './highlight';
import { PairTable } from './PairTable';
import { useColumnWidths } from './useColumnWidths';
import { useExampleSelection } from './useExampleSelection';
import { useExamplesCsv } from './useExamplesCsv';
import { useExplorerKeys } from './useExplorerKeys';
import { useHeaderSort } from './useHeaderSort';
import { usePairPages } from './usePairPages';

/** The pair's criteria and the grid's columns, which mark the search's hits. */
function usePairColumns(comparison: ComparisonView | undefined, searchText: string | undefined) {
  const criteria = useMemo(
    () =>
      comparison?.criteria.map((c) => ({ field: c.field, direction: c.direction, kind: c.kind })) ??
      [],
    [comparison],
  );
  const search = useMemo(
    () => ({ text: searchPattern(searchText), id: searchPattern(searchText, true) }),
    [searchText],
  );
  const columns = useMemo(() => pairColumns(criteria, search), [criteria, search]);
  return { criteria, columns };
}

/** Room the input would like beyond its least, when the table's default width is set. */
const INPUT_COMFORT = 80;
/** The vertical scrollbar beside the rows. */
const SCROLLBAR = 16;
const TABLE_ID = 'examples-table';

/** The table and the detail side by side, split where the splitter (or the default) puts it. */
function ExplorerPanes({
  attach,
  table,
  total,
  children,
}: {
  attach(node: HTMLDivElement | null): void;
  table: number;
  total: number;
  children: ReactNode;
}) {
  return (
    <div
      className="explorer"
      ref={attach}
      style={total > 0 ? { gridTemplateColumns: `${table}px auto minmax(0, 1fr)` } : undefined}
    >
      {children}
    </div>
  );
}

function DetailPane({
  reportKey,
  pair,
  exampleId,
  search,
}: Omit<ExampleDetailProps, 'exampleId'> & { exampleId: string | null }) {
  return (
    <div className="detail-pane" tabIndex={-1}>
      {exampleId ? (
        <ExampleDetail reportKey={reportKey} pair={pair} exampleId={exampleId} search={search} />
      ) : (
        <p className="muted pad">Select an example.</p>
      )}
    </div>
  );
}

export function ExamplesView() {
  const loaded = useApp((s) => s.report);
  const pair = useApp((s) => s.pair);
  const filter = useApp((s) => s.filter);
  const filterEpoch = useApp((s) => s.filterEpoch);
  const experimentId = useApp((s) => s.experimentId);
  const sort = useApp((s) => s.sort);
  const exampleId = useApp((s) => s.exampleId);
  const { readOnly } = useReadOnly();
  const [hidden, setHidden] = useHiddenColumns();
  const searchRef = useRef<HTMLInputElement>(null);
  const comparison = loaded?.report.comparisons[pair];
  const { criteria, columns } = usePairColumns(comparison, filter.search);
  const { rows, opening, total, loading, loadMore, searchPending } = usePairPages(
    loaded?.key ?? null,
    pair,
    filter,
    sort,
  );
  const sized = useColumnWidths(columns, hidden, rows, pair);
  const { attach, ...split } = useExplorerSplit(leastWidth(sized) + INPUT_COMFORT + SCROLLBAR);
  useEffect(() => {
    if (experimentId && !loaded) void ensureComparison();
  }, [experimentId, loaded]);
  const { selected, select, move } = useExampleSelection(rows);
  const exportCsv = useExamplesCsv(loaded, pair, filter);
  const headerClick = useHeaderSort();
  useExplorerKeys(searchRef, move, () => void exportCsv(false));

  if (!loaded || !comparison)
    return (
      <p className="muted pad" role="status">
        {readOnly
          ? `No comparison of these runs yet (${READ_ONLY_TITLE} to compare them).`
          : 'Preparing the comparison…'}
      </p>
    );
  const current = exampleId ?? rows.at(0)?.example_id ?? null;
  return (
    <section className="examples">
      <ExamplesToolbar
        report={loaded.report}
        comparison={comparison}
        total={total}
        searchPending={searchPending}
        columns={columns}
        hidden={hidden}
        onHidden={setHidden}
        onExport={(all) => void exportCsv(all)}
      />
      <ReferenceNote report={loaded.report} />
      <Filters key={filterEpoch} criteria={criteria.map((c) => c.field)} searchRef={searchRef} />
      <ExplorerPanes attach={attach} table={split.table} total={split.total}>
        <PairTable
          id={TABLE_ID}
          sized={sized}
          rows={rows}
          opening={opening}
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
        <ExplorerSplitter
          table={split.table}
          total={split.total}
          controls={TABLE_ID}
          onResize={split.resize}
          onReset={split.reset}
        />
        <DetailPane reportKey={loaded.key} pair={pair} exampleId={current} search={filter.search} />
      </ExplorerPanes>
    </section>
  );
}
