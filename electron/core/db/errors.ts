import { newestBackup } from './backup';
import { isBusy } from './busy';

/**
 * SQLite and file-system failures in words a person can act on. The raw codes stay in the
 * message's tail for bug reports.
 */
export function describeDbError(error: unknown, file: string): string | null {
  const code = (error as { code?: string } | null)?.code ?? '';
  const raw = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_FULL' || /database or disk is full/i.test(raw)) {
    return `The disk holding ${file} is full: nothing was half-written, but Pairwise cannot save more until space is freed. (${code || raw})`;
  }
  if (
    code === 'SQLITE_READONLY' ||
    code.startsWith('SQLITE_READONLY') ||
    /readonly database/i.test(raw)
  ) {
    return `Pairwise cannot write to ${file}: the file or its folder is read-only. Make it writable or choose another database with --db. (${code || raw})`;
  }
  if (['SQLITE_CANTOPEN', 'EACCES', 'EROFS', 'EPERM', 'ENOTDIR', 'EEXIST'].includes(code)) {
    return `Pairwise cannot open or create its database at ${file}: the folder is missing, read-only or not permitted. Choose another with --db or $PAIRWISE_DB. (${code})`;
  }
  if (
    code.startsWith('SQLITE_CORRUPT') ||
    code === 'SQLITE_NOTADB' ||
    /malformed|not a database/i.test(raw)
  ) {
    const backup = newestBackup(file);
    return `${file} is not a readable Pairwise database (it is damaged, or another kind of file). Nothing was written to it. ${backup ? `With Pairwise closed, move it aside and copy the newest backup, ${backup}, in its place.` : 'Move it aside; Pairwise will start a new one (index your run files again).'} (${code || raw})`;
  }
  if (isBusy(error)) {
    // Since indexing and comparisons write from their own workers, the writer holding the lock is
    // usually this same Pairwise (a large file being indexed, a million-row comparison being saved).
    return `${file} stayed busy with another write for more than 10 seconds (a large file being indexed, a comparison being saved, or another Pairwise process). Nothing was changed; try again in a moment. (${code})`;
  }
  return null;
}

export class DatabaseUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}
