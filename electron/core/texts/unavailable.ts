import type { Db } from '../db/open';
import { ConflictError } from '../errors';
import type { TextRow, Unavailable } from './blocks';

/**
 * A copy of a run's texts (a CSV or Parquet export, a sync record) was asked for while some
 * of them can only be read from a source file that changed or vanished since indexing (the
 * archive had not copied them yet). Writing the empty texts the reader gives then would pass
 * blanks off as the run's texts, so the copy is refused, saying which file and what to do.
 */
export class TextsUnavailableError extends ConflictError {}

function because(reason: Unavailable): string {
  return reason === 'source-missing'
    ? 'is gone and its texts were not archived yet: put the file back, or re-index the folder'
    : 'changed since it was indexed and its texts were not archived yet: re-index the folder';
}

/** The refusal for a run named by its rowid or its id. */
export function textsUnavailable(
  db: Db,
  run: number | string,
  reason: Unavailable,
): TextsUnavailableError {
  const by = typeof run === 'number' ? 'rowid' : 'id';
  const found = db.prepare(`SELECT id, path FROM runs WHERE ${by} = ?`).get(run) as
    { id: string; path: string | null } | undefined;
  const name = `run "${found?.id ?? run}"`;
  const source = found?.path ? ` (${found.path})` : '';
  return new TextsUnavailableError(
    `The source file of ${name}${source} ${because(reason)}, then try again.`,
  );
}

/** The row, when its texts could be read; else the refusal above. */
export function requireTexts<T extends TextRow>(db: Db, runRowid: number, row: T): T {
  if (row.unavailable) throw textsUnavailable(db, runRowid, row.unavailable);
  return row;
}
