import { columnsOutOfView, revealAfter, revealBefore } from './columnFit';

function more(n: number): string {
  return `${n} more column${n === 1 ? '' : 's'}`;
}

interface CueProps {
  widths: readonly number[];
  /** The view: how far the grid is scrolled sideways, and how wide it shows. */
  left: number;
  width: number;
}

/**
 * A slim bar above the grid with a button at each end that has columns out of view, which
 * scrolls them in. It sits above the header, not on it: laid over the header it hid the label
 * of the very column it pointed to. Nothing shows when every column is in view.
 */
export function ColumnCueBar({
  widths,
  left,
  width,
  onScrollTo,
}: CueProps & { onScrollTo(left: number): void }) {
  if (width <= 0) return null;
  const { before, after } = columnsOutOfView(widths, left, width);
  if (before === 0 && after === 0) return null;
  return (
    <div className="column-cue-bar">
      {before > 0 ? (
        <button
          className="column-cue-button"
          onClick={() => onScrollTo(revealBefore(widths, left, width))}
        >
          ← {more(before)}
        </button>
      ) : null}
      {after > 0 ? (
        <button
          className="column-cue-button after"
          onClick={() => onScrollTo(revealAfter(widths, left, width))}
        >
          {more(after)} →
        </button>
      ) : null}
    </div>
  );
}

/** A shade on each edge of the grid where columns pass out of view. */
export function ColumnShades({ widths, left, width }: CueProps) {
  if (width <= 0) return null;
  const { before, after } = columnsOutOfView(widths, left, width);
  return (
    <>
      {/* The shade on the left starts after the pinned id column, where columns pass under it. */}
      {before > 0 ? <div className="column-cue before" style={{ left: widths[0] ?? 0 }} /> : null}
      {after > 0 ? <div className="column-cue after" style={{ left: width }} /> : null}
    </>
  );
}
