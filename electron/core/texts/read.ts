import type { Db } from '../db/open';
import { BLOCK_SIZE, type BlockEncoding, type TextRow } from './blocks';
import { decodeTextBlock, SourceFiles } from './located';
import { ordinalOfKey, runOfKey } from './keys';

/** Decoded blocks kept by one reader: an explorer page or an export walks a few at a time. */
const CACHED_BLOCKS = 64;

/**
 * Reads examples' texts from `run_texts` by key, a block at a time, keeping the last blocks it
 * decoded. Every reader of texts (explorer, exports, sync, the full-text fill) goes through
 * it, so how a block is stored is this module's business alone.
 */
export class TextReader {
  private readonly select;
  private readonly cache = new Map<string, TextRow[] | null>();
  /** Each located block's source is stat'ed once per reader: a page or an export reads many. */
  private readonly files = new SourceFiles();

  constructor(private readonly db: Db) {
    this.select = db.prepare(
      `SELECT encoding, data FROM run_texts WHERE run_rowid = ? AND block = ?`,
    );
  }

  /** A block's examples, or null when the run has no such block. */
  block(runRowid: number, block: number): TextRow[] | null {
    const name = `${runRowid}:${block}`;
    const cached = this.cache.get(name);
    if (cached !== undefined) {
      this.cache.delete(name);
      this.cache.set(name, cached);
      return cached;
    }
    const row = this.select.get(runRowid, block) as
      { encoding: BlockEncoding; data: Buffer } | undefined;
    const rows = row ? decodeTextBlock(row.encoding, row.data, this.files) : null;
    this.cache.set(name, rows);
    if (this.cache.size > CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    return rows;
  }

  /** One example's texts, or null for a key no stored run holds. */
  text(key: number): TextRow | null {
    const ordinal = ordinalOfKey(key);
    const rows = this.block(runOfKey(key), Math.floor(ordinal / BLOCK_SIZE));
    return rows?.[ordinal % BLOCK_SIZE] ?? null;
  }

  /** Several examples' texts by key; keys no stored run holds are left out. */
  texts(keys: Iterable<number>): Map<number, TextRow> {
    const found = new Map<number, TextRow>();
    const sorted = [...new Set(keys)].sort((a, b) => a - b);
    for (const key of sorted) {
      const row = this.text(key);
      if (row) found.set(key, row);
    }
    return found;
  }

  /** A run's examples in the order they were imported, with each one's ordinal. */
  *run(runRowid: number): Generator<[ordinal: number, row: TextRow]> {
    for (let block = 0; ; block++) {
      const rows = this.block(runRowid, block);
      if (!rows) return;
      for (let i = 0; i < rows.length; i++) yield [block * BLOCK_SIZE + i, rows[i]!];
    }
  }
}
