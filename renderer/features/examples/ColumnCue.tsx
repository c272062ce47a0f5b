import { columnsOutOfView, revealAfter, revealBefore } from './columnFit';

function more(n: number): string {
  return `${n} more column${n === 1 ? '' : 's'}`;
}

/**
 * What tells the researcher the grid has columns out of view: a shade on each edge where some
 * are, and a button on it that scrolls them in. Nothing shows when every column is in view.
 */
export function ColumnCue({
  widths,
  left,
  width,
  top,
  onScrollTo,
}: {
  widths: readonly number[];
  /** The view: how far the grid is scrolled sideways, and how wide it shows. */
  left: number;
  width: number;
  /** The header's height: the buttons sit on it, over no row. */
  top: number;
  onScrollTo(left: number): void;
}) {
  if (width <= 0) return null;
  // The shade on the left starts after the pinned id column, where columns pass under it.
  const { before, after } = columnsOutOfView(widths, left, width);
  return (
    <>
      {before > 0 ? (
        <div className="column-cue before" style={{ left: widths[0] ?? 0 }}>
          <button
            className="column-cue-button"
            style={{ height: top - 8 }}
            onClick={() => onScrollTo(revealBefore(widths, left, width))}
          >
            ← {more(before)}
          </button>
        </div>
      ) : null}
      {after > 0 ? (
        <div className="column-cue after" style={{ left: width }}>
          <button
            className="column-cue-button"
            style={{ height: top - 8 }}
            onClick={() => onScrollTo(revealAfter(widths, left, width))}
          >
            {more(after)} →
          </button>
        </div>
      ) : null}
    </>
  );
}
