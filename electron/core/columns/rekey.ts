import { KEY_SPAN } from '../texts/keys';
import { unpack } from './format';

/**
 * A column store built before its run had a rowid (in an index worker, outside the write lock)
 * holds each example's ordinal in its `rowids` section; the writer, once it has the run's
 * rowid, turns them into keys (texts/keys.ts) in place.
 */
export function rekeyRunColumns(bytes: Buffer, runRowid: number): void {
  const header = unpack(bytes);
  if (!header) throw new Error('not a column store this version writes');
  const [offset, length] = header.sections.rowids!;
  const base = runRowid * KEY_SPAN;
  for (let at = offset; at < offset + length; at += 8)
    bytes.writeDoubleLE(bytes.readDoubleLE(at) + base, at);
}
