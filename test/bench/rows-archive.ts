import type { IndexResult } from './phase-index';
import { secs } from './measure';
import { mb, n } from './results';

/**
 * The archive's row: how long it took after search, the texts' bytes before and after
 * compression, and the pages the database uses before and after.
 */
export function archiveResult(
  seconds: number,
  a: NonNullable<IndexResult['archive']>,
  index: IndexResult,
): string {
  const left = a.left > 0 ? `, ${n(a.left)} blocks left in place` : '';
  const live =
    index.liveBytesBeforeArchive !== undefined && index.liveBytesAfterArchive !== undefined
      ? `; DB pages in use ${mb(index.liveBytesBeforeArchive)} → ${mb(index.liveBytesAfterArchive)}`
      : '';
  return `${secs(seconds)} more (${mb(a.bytes)} of texts → ${mb(a.compressedBytes)} in ${n(a.blocks)} blocks${left}${live})`;
}
