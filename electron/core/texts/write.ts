import type { Db } from '../db/open';
import { BLOCK_SIZE, encodeJsonBlock, type TextInput } from './blocks';

/** A run's block as the indexer writes it; `data` may arrive from a worker as a Uint8Array. */
export interface NumberedBlock {
  block: number;
  data: Uint8Array;
}

/**
 * Cuts a run's examples, handed over in file order in any number of batches, into json blocks
 * of BLOCK_SIZE, carrying a partial block to the next batch. The one place the index path
 * turns texts into block bytes (whole file and streamed alike).
 */
export class JsonBlockBuilder {
  private carry: TextInput[] = [];
  private next = 0;

  /** The blocks the rows complete. */
  add(rows: readonly TextInput[]): NumberedBlock[] {
    const done: NumberedBlock[] = [];
    for (const row of rows) {
      this.carry.push(row);
      if (this.carry.length === BLOCK_SIZE) done.push(this.flush());
    }
    return done;
  }

  /** The last, partial block (none when the examples filled whole blocks). */
  end(): NumberedBlock[] {
    return this.carry.length > 0 ? [this.flush()] : [];
  }

  private flush(): NumberedBlock {
    const block = { block: this.next++, data: encodeJsonBlock(this.carry) };
    this.carry = [];
    return block;
  }
}

/** Stores blocks of a run; the caller holds the write transaction. */
export function writeRunTexts(db: Db, runRowid: number, blocks: readonly NumberedBlock[]): void {
  const insert = db.prepare(
    `INSERT INTO run_texts (run_rowid, block, encoding, data) VALUES (?, ?, 'json', ?)`,
  );
  for (const { block, data } of blocks)
    insert.run(runRowid, block, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}
