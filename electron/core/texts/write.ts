import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open';
import { BLOCK_SIZE, type BlockEncoding } from './blocks';
import type { LocatedTexts } from './locate';
import { encodeSourceBlock, type LocatedInput, type SourceStamp } from './located';

/** An example whose texts were not looked for in a source: they go into a json block. */
export const NOT_LOCATED: LocatedTexts = { input: null, output: null };

/** A run's block as the indexer writes it; `data` may arrive from a worker as a Uint8Array. */
export interface NumberedBlock {
  block: number;
  encoding: BlockEncoding;
  data: Uint8Array;
}

/**
 * Cuts a run's examples, handed over in file order in any number of batches, into blocks of
 * BLOCK_SIZE, carrying a partial block to the next batch. The one place the index path turns
 * texts into block bytes (whole file, streamed, and the conversion of older libraries alike):
 * `located` when the examples came from a plain local file (`source`) and their texts were
 * found in it, else `json`.
 */
export class TextBlockBuilder {
  private carry: LocatedInput[] = [];
  private next = 0;

  constructor(private readonly source: SourceStamp | null = null) {}

  /** The blocks the rows complete. */
  add(rows: readonly LocatedInput[]): NumberedBlock[] {
    const done: NumberedBlock[] = [];
    for (const row of rows) {
      const block = this.push(row);
      if (block) done.push(block);
    }
    return done;
  }

  /**
   * One row: the block it completes, if it does. Rows handed over one by one as they are
   * prepared are gone once their block is written, rather than all of a large run's held
   * until the last one is ready (and moved to the old generation on the way).
   */
  push(row: LocatedInput): NumberedBlock | null {
    this.carry.push(row);
    return this.carry.length === BLOCK_SIZE ? this.flush() : null;
  }

  /** The last, partial block (none when the examples filled whole blocks). */
  end(): NumberedBlock[] {
    return this.carry.length > 0 ? [this.flush()] : [];
  }

  private flush(): NumberedBlock {
    const { encoding, data } = encodeSourceBlock(this.source, this.carry);
    this.carry = [];
    return { block: this.next++, encoding, data };
  }
}

/** Prepared once per connection: the indexer stores blocks for every file, 1,000 files a second. */
const inserts = new WeakMap<Db, Statement>();

/** Stores blocks of a run; the caller holds the write transaction. */
export function writeRunTexts(db: Db, runRowid: number, blocks: readonly NumberedBlock[]): void {
  let insert = inserts.get(db);
  if (!insert) {
    insert = db.prepare(
      `INSERT INTO run_texts (run_rowid, block, encoding, data) VALUES (?, ?, ?, ?)`,
    );
    inserts.set(db, insert);
  }
  for (const { block, encoding, data } of blocks)
    insert.run(
      runRowid,
      block,
      encoding,
      Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    );
}
