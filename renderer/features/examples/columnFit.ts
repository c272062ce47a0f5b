/** Column widths of the explorer grid and which columns the table pane's view leaves out. */

import { breakPieces } from '../../components/BreakableText';

/** Horizontal padding of a grid cell (8 px each side), plus a pixel for rounding. */
export const CELL_PADDING = 17;
/** Room kept after a sortable header's label for the sort arrow, so sorting never rewraps it. */
export const SORT_ARROW = 12;

/**
 * The narrowest a header can be on at most two lines: the wider line at the best break, or the
 * whole text when it has no break. A piece is measured as it would lie at the end of a line,
 * without its trailing space.
 */
export function twoLineWidth(text: string, measure: (text: string) => number): number {
  const pieces = breakPieces(text);
  let best = measure(text.trimEnd());
  for (let i = 1; i < pieces.length; i++) {
    const first = measure(pieces.slice(0, i).join('').trimEnd());
    const rest = measure(pieces.slice(i).join('').trimEnd());
    best = Math.min(best, Math.max(first, rest));
  }
  return best;
}

export interface ColumnContent {
  /** The header as it reads. */
  header: string;
  sortable: boolean;
  /** Texts the column's cells show (some rows' cells, and any text it can show at its widest). */
  texts: readonly string[];
  /** Bounds on the column's width, padding included. */
  min: number;
  max: number;
}

export interface TextMeasure {
  header(text: string): number;
  cell(text: string): number;
}

/** The width a column needs to show its header (on up to two lines) and its cells whole. */
export function contentWidth(column: ColumnContent, measure: TextMeasure): number {
  const head = twoLineWidth(column.header, measure.header) + (column.sortable ? SORT_ARROW : 0);
  const cells = column.texts.reduce((widest, t) => Math.max(widest, measure.cell(t)), 0);
  const need = Math.ceil(Math.max(head, cells)) + CELL_PADDING;
  return Math.min(column.max, Math.max(column.min, need));
}

export interface FitColumn {
  /** The column's width, or for a flexible one its least. */
  width: number;
  /** A flexible column takes the room the others leave. */
  flex: boolean;
}

/**
 * The widths that fill `available` pixels: fixed columns keep their width, flexible ones share
 * what is left equally but never shrink below their least. When nothing is left they keep their
 * least and the columns overflow the pane.
 */
export function fitWidths(columns: readonly FitColumn[], available: number): number[] {
  const flexible = columns.filter((c) => c.flex).length;
  if (flexible === 0) return columns.map((c) => c.width);
  const fixed = columns.reduce((sum, c) => sum + (c.flex ? 0 : c.width), 0);
  const share = Math.floor(Math.max(0, available - fixed) / flexible);
  return columns.map((c) => (c.flex ? Math.max(c.width, share) : c.width));
}

/** The sum of the columns at their own widths, flexible ones at their least. */
export function leastWidth(columns: readonly FitColumn[]): number {
  return columns.reduce((sum, c) => sum + c.width, 0);
}

export interface ColumnsOutOfView {
  /** Columns not wholly in view on the left (or under the pinned first column), and on the right. */
  before: number;
  after: number;
}

/** A pixel of slack: sub-pixel layout never counts a column as out of view. */
const SLACK = 1;

/**
 * The grid's first column (the example id) is pinned: it stays at the view's left edge as the
 * others scroll under it, so they are in view only right of it.
 */
function pinnedWidth(widths: readonly number[]): number {
  return widths[0] ?? 0;
}

/** How many columns lie (wholly or partly) outside a view `width` wide scrolled to `left`. */
export function columnsOutOfView(
  widths: readonly number[],
  left: number,
  width: number,
): ColumnsOutOfView {
  const pinned = pinnedWidth(widths);
  let before = 0;
  let after = 0;
  let x = pinned;
  for (const w of widths.slice(1)) {
    if (x < left + pinned - SLACK) before++;
    else if (x + w > left + width + SLACK) after++;
    x += w;
  }
  return { before, after };
}

/**
 * Where to scroll to bring the columns right of the view into it: the first of them to the pinned
 * column's edge, or as far as the grid goes. Clicked again, the next ones come, until the last
 * shows.
 */
export function revealAfter(widths: readonly number[], left: number, width: number): number {
  const pinned = pinnedWidth(widths);
  const total = widths.reduce((a, b) => a + b, 0);
  let x = pinned;
  for (const w of widths.slice(1)) {
    if (x + w > left + width + SLACK) {
      // A column already at the pinned edge but cut on the right is wider than the room: bring
      // its right edge in instead, so each click moves on.
      const start = x - pinned > left + SLACK ? x - pinned : x + w - width;
      return Math.max(0, Math.min(start, total - width));
    }
    x += w;
  }
  return left;
}

/**
 * Where to scroll to bring the columns left of the view into it: the nearest of them to the right
 * edge (its left edge to the pinned column's if it is wider than the room beside that column).
 */
export function revealBefore(widths: readonly number[], left: number, width: number): number {
  const pinned = pinnedWidth(widths);
  let x = pinned;
  let target = left;
  for (const w of widths.slice(1)) {
    if (x < left + pinned - SLACK) target = Math.max(0, Math.min(x - pinned, x + w - width));
    x += w;
  }
  return Math.min(target, left);
}
