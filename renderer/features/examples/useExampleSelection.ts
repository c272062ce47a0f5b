import { useCallback, useMemo } from 'react';
import { useApp } from '../../store';
import type { RowPages } from './rowPages';
import type { PairRow } from './usePairPages';

/**
 * The picked example among the loaded rows, by id (the address holds it): its row index (-1
 * when it is not loaded; none picked is the first row), a way to pick a row, and to step.
 */
export function useExampleSelection(rows: RowPages<PairRow>) {
  const exampleId = useApp((s) => s.exampleId);
  const selectExample = useApp((s) => s.selectExample);
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
  return { selected, select, move };
}
