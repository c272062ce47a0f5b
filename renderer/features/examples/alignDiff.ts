import type { ChangeObject } from 'diff';

/** A piece of one side of a row: shared text, or text only this side has. */
export interface Piece {
  text: string;
  changed: boolean;
}

/** One row of the side-by-side diff: what each side shows there. */
export interface DiffRow {
  left: Piece[];
  right: Piece[];
  /** Either side has text the other lacks in this row. */
  changed: boolean;
}

/** Where shared text may end a row: after a line break or a sentence's end. */
const SYNC = /\n|[.!?](?=\s)\s*/g;

/**
 * Cuts a word diff into rows that both sides start together: a row ends inside shared text, at
 * a line break or a sentence's end, so the row after an insertion starts level on both sides
 * however long the insertion was. Rows are laid out in one grid, each as tall as its taller side.
 */
export function alignDiff(parts: readonly ChangeObject<string>[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let row: DiffRow = { left: [], right: [], changed: false };
  const push = (side: Piece[], text: string, changed: boolean) => {
    const last = side.at(-1);
    if (last && last.changed === changed) last.text += text;
    else side.push({ text, changed });
  };
  const end = () => {
    if (row.left.length > 0 || row.right.length > 0) rows.push(row);
    row = { left: [], right: [], changed: false };
  };
  for (const part of parts) {
    if (part.added || part.removed) {
      push(part.added ? row.right : row.left, part.value, true);
      row.changed = true;
      continue;
    }
    let from = 0;
    for (const cut of part.value.matchAll(SYNC)) {
      const to = cut.index + cut[0].length;
      const text = part.value.slice(from, to);
      push(row.left, text, false);
      push(row.right, text, false);
      end();
      from = to;
    }
    if (from < part.value.length) {
      const text = part.value.slice(from);
      push(row.left, text, false);
      push(row.right, text, false);
    }
  }
  end();
  return rows;
}
