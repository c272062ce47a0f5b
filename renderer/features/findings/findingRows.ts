import type { FindingRow } from '../../../shared/findings';

/**
 * The experiment's findings with the open one as its last load or save left it: the list is
 * asked when another finding is opened, and an autosave (a new revision, perhaps a new title)
 * must not leave the picker naming an older one.
 */
export function withLatestRow(rows: FindingRow[], latest: FindingRow | null): FindingRow[] {
  if (!latest) return rows;
  return rows.map((row) =>
    row.id === latest.id && row.currentRevision <= latest.currentRevision ? latest : row,
  );
}
