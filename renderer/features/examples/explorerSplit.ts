/** How the explorer divides its width between the table and the detail pane. */

/** The splitter's own width, between the two panes. */
export const SPLITTER = 7;
/** Each pane keeps at least this much: the table its id and a cut input, the detail its diff. */
export const MIN_TABLE = 320;
export const MIN_DETAIL = 320;
/** The table's default share when its columns would take more, or need less. */
const DEFAULT_MOST = 0.66;
const DEFAULT_LEAST = 0.5;

/** The most and least the table may take in an explorer `total` pixels wide. */
export function tableBounds(total: number): { min: number; max: number } {
  const room = Math.max(0, total - SPLITTER);
  // Too narrow for both minimums: halve what there is.
  if (room < MIN_TABLE + MIN_DETAIL) return { min: room / 2, max: room / 2 };
  return { min: MIN_TABLE, max: room - MIN_DETAIL };
}

/** A width for the table within its bounds. */
export function clampTable(width: number, total: number): number {
  const { min, max } = tableBounds(total);
  return Math.round(Math.min(max, Math.max(min, width)));
}

/**
 * The table's width when the researcher has not set one: what its columns need, so that on a
 * wide window every column shows, but no less than half the explorer and no more than two
 * thirds, so the detail keeps room for the two outputs side by side.
 */
export function defaultTable(needed: number, total: number): number {
  const room = Math.max(0, total - SPLITTER);
  return clampTable(Math.min(room * DEFAULT_MOST, Math.max(room * DEFAULT_LEAST, needed)), total);
}

/**
 * The table's width: the share the researcher set (kept as a share of the explorer so a resized
 * window keeps the proportion), else the default.
 */
export function tableWidth(share: number | null, needed: number, total: number): number {
  if (share === null) return defaultTable(needed, total);
  return clampTable(share * Math.max(0, total - SPLITTER), total);
}

/** A stored share, if it is one: a number strictly between 0 and 1. */
export function readShare(stored: string | null): number | null {
  if (stored === null) return null;
  const share = Number(stored);
  return Number.isFinite(share) && share > 0 && share < 1 ? share : null;
}
