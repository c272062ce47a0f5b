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
  // Viewed in place when aligned, as the readers view it: a read and a write call per row cost
  // the writer a tenth of storing a run's columns.
  if ((bytes.byteOffset + offset) % 8 === 0) {
    const rowids = new Float64Array(bytes.buffer, bytes.byteOffset + offset, length / 8);
    for (let i = 0; i < rowids.length; i++) rowids[i] = rowids[i]! + base;
    return;
  }
  for (let at = offset; at < offset + length; at += 8)
    bytes.writeDoubleLE(bytes.readDoubleLE(at) + base, at);
}
