import { readRunColumns } from '../columns/store';
import { HASH_WORDS, readRunTable, type RunTable } from '../columns/table';
import type { Db } from '../db/open';
import type { TextRow } from './blocks';
import { requireConverted } from './convert';
import { exampleKey } from './keys';
import { TextReader } from './read';
import { requireTexts } from './unavailable';

/** What an example's row held: its texts from the blocks, its id and hashes from the columns. */
export interface StoredExample extends TextRow {
  id: string;
  key: number;
  inputHash: string;
  outputHash: string;
}

function hexAt(words: Uint32Array, position: number): string {
  const at = words.byteOffset + position * HASH_WORDS * 4;
  return Buffer.from(words.buffer, at, HASH_WORDS * 4).toString('hex');
}

function tableOf(db: Db, runRowid: number): RunTable {
  requireConverted(db, [runRowid]);
  const table = readRunTable(readRunColumns(db, runRowid)!);
  if (!table) throw new Error('This run was stored by a newer Pairwise: index it again.');
  return table;
}

/**
 * A run's examples in the order they were imported, one block in memory at a time: the column
 * store, sorted by id, says where each key's id and hashes sit. What reads this copies the
 * texts out (exports, sync), so an example whose texts can no longer be read stops it with a
 * `TextsUnavailableError` rather than giving empty texts.
 */
export function* storedExamples(
  db: Db,
  runRowid: number,
  reader = new TextReader(db),
): Generator<StoredExample> {
  const table = tableOf(db, runRowid);
  const base = exampleKey(runRowid, 0);
  const positionOf = new Int32Array(table.n);
  table.rowids.forEach((key, position) => (positionOf[key - base] = position));
  for (const [ordinal, text] of reader.run(runRowid)) {
    const position = positionOf[ordinal]!;
    const start = position === 0 ? 0 : table.idEnds[position - 1]!;
    yield {
      ...requireTexts(db, runRowid, text),
      id: table.joined.slice(start, table.idEnds[position]),
      key: base + ordinal,
      inputHash: hexAt(table.input, position),
      outputHash: hexAt(table.output, position),
    };
  }
}

/** A run's examples in id order (code-unit order, the comparison's), all in memory. */
export function storedExamplesById(db: Db, runRowid: number): StoredExample[] {
  const all = [...storedExamples(db, runRowid)];
  return all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
