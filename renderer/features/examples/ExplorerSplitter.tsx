import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { clampTable, readShare, SPLITTER, tableBounds, tableWidth } from './explorerSplit';

const storageKey = 'pairwise.explorerSplit';
/** An arrow key moves the splitter this far; with Shift, four times as far. */
const STEP = 16;

function storedShare(): number | null {
  try {
    return readShare(localStorage.getItem(storageKey));
  } catch {
    return null;
  }
}

/**
 * The explorer's width and the table's share of it, kept across reloads. `needed` is what the
 * table's columns take, which sets the table's width until the researcher moves the splitter.
 */
export function useExplorerSplit(needed: number) {
  // A callback ref: the explorer mounts after the comparison loads, not with the view.
  const [element, attach] = useState<HTMLDivElement | null>(null);
  const [total, setTotal] = useState(0);
  const [share, setShare] = useState(storedShare);
  useEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setTotal(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  const table = tableWidth(share, needed, total);
  const resize = useCallback(
    (width: number) => {
      const room = total - SPLITTER;
      if (room <= 0) return;
      const next = clampTable(width, total) / room;
      setShare(next);
      localStorage.setItem(storageKey, String(next));
    },
    [total],
  );
  const reset = useCallback(() => {
    setShare(null);
    localStorage.removeItem(storageKey);
  }, []);
  return { attach, total, table, resize, reset };
}

/**
 * The bar between the table and the detail: drag it, or focus it and use the arrow keys (Home
 * and End go to the ends); a double click (or Enter) gives the table its default width again.
 */
export function ExplorerSplitter({
  table,
  total,
  controls,
  onResize,
  onReset,
}: {
  table: number;
  total: number;
  /** The id of the pane the splitter sizes. */
  controls: string;
  onResize(width: number): void;
  onReset(): void;
}) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const { min, max } = tableBounds(total);
  const percent = (px: number) =>
    total > SPLITTER ? Math.round((px / (total - SPLITTER)) * 100) : 0;
  const down = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, width: table };
    event.preventDefault();
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) onResize(drag.current.width + event.clientX - drag.current.x);
  };
  const up = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const key = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? STEP * 4 : STEP;
    const to: Record<string, number> = {
      ArrowLeft: table - step,
      ArrowRight: table + step,
      Home: min,
      End: max,
    };
    if (event.key === 'Enter') onReset();
    else if (event.key in to) onResize(to[event.key]!);
    else return;
    event.preventDefault();
  };
  return (
    <div
      className="explorer-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the table and the detail"
      aria-controls={controls}
      aria-valuenow={percent(table)}
      aria-valuemin={percent(min)}
      aria-valuemax={percent(max)}
      aria-valuetext={`Table ${Math.round(table)} pixels wide`}
      title="Drag to resize; double-click to reset"
      tabIndex={0}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onDoubleClick={onReset}
      onKeyDown={key}
    />
  );
}
