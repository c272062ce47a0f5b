import type { VisibilityState } from '@tanstack/react-table';
import { useEffect, useRef, useState } from 'react';
import { columnId, type PairColumn } from './columns';

const storageKey = 'pairwise.hiddenColumns';

/** Hidden columns, kept across reloads (by column id, so a criterion stays hidden wherever). */
export function useHiddenColumns(): [VisibilityState, (next: VisibilityState) => void] {
  const [hidden, setHidden] = useState<VisibilityState>(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(storageKey) ?? '{}') as unknown;
      return stored && typeof stored === 'object' ? (stored as VisibilityState) : {};
    } catch {
      return {};
    }
  });
  const save = (next: VisibilityState) => {
    setHidden(next);
    localStorage.setItem(storageKey, JSON.stringify(next));
  };
  return [hidden, save];
}

function label(c: PairColumn): string {
  return typeof c.header === 'string' ? c.header : columnId(c);
}

/** A "Columns" menu: one checkbox per column of the grid; the example id always shows. */
export function ColumnChooser({
  columns,
  hidden,
  onChange,
}: {
  columns: PairColumn[];
  hidden: VisibilityState;
  onChange(next: VisibilityState): void;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  const shown = columns.filter((c) => hidden[columnId(c)] !== false).length;
  return (
    <div className="menu" ref={ref}>
      <button
        className="secondary"
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        Columns ({shown}/{columns.length})
      </button>
      {open ? (
        <div className="menu-panel" role="group" aria-label="Columns shown">
          {columns.map((c) => {
            const id = columnId(c);
            return (
              <label key={id} className="menu-item" title={label(c)}>
                <input
                  type="checkbox"
                  checked={hidden[id] !== false}
                  disabled={id === 'example_id'}
                  onChange={(e) => onChange({ ...hidden, [id]: e.target.checked })}
                />
                <span className="ellipsis">{label(c)}</span>
              </label>
            );
          })}
          {Object.values(hidden).some((v) => v === false) ? (
            <button className="link" onClick={() => onChange({})}>
              Show all columns
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
