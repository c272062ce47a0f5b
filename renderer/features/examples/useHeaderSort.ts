import { useCallback } from 'react';
import { useApp } from '../../store';
import type { HeaderSort } from './columns';

/**
 * A click on a sortable header: the same column again flips the order, another column starts
 * in its own first order (regressions first for a criterion, "yes" first for a flag).
 */
export function useHeaderSort(): (key: HeaderSort) => void {
  const sort = useApp((s) => s.sort);
  const setSort = useApp((s) => s.setSort);
  return useCallback(
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
}
