import { readRunColumns } from '../columns/store';
import { HASH_WORDS, readRunTable, type RunTable } from '../columns/table';
import type { Db } from '../db/open';
import type { TextRow } from './blocks';
import { requireConverted } from './convert';
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
 * A run's examples in id order (code-unit order, the comparison's): the column store's order,
 * each example's texts fetched by key. When the file lists ids in order, as most do, its blocks
 * are read one after another; otherwise the reader's recent blocks absorb some of the jumps.
 */
export function* storedExamplesInIdOrder(
  db: Db,
  runRowid: number,
  reader = new TextReader(db),
): Generator<StoredExample> {
  const table = tableOf(db, runRowid);
  for (let position = 0; position < table.n; position++) {
    const key = table.rowids[position]!;
    const text = reader.text(key);
    if (!text) throw new Error(`The texts of example ${key} of run ${runRowid} are missing.`);
    const start = position === 0 ? 0 : table.idEnds[position - 1]!;
    yield {
      ...requireTexts(db, runRowid, text),
      id: table.joined.slice(start, table.idEnds[position]),
      key,
      inputHash: hexAt(table.input, position),
      outputHash: hexAt(table.output, position),
    };
  }
}

/** A run's examples in id order, all in memory. */
export function storedExamplesById(db: Db, runRowid: number): StoredExample[] {
  return [...storedExamplesInIdOrder(db, runRowid)];
}
