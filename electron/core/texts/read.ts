import type { Db } from '../db/open';
import {
  BLOCK_SIZE,
  WHOLE,
  wholeRows,
  type BlockEncoding,
  type BlockRows,
  type PartialRow,
  type TextRow,
  type Wanted,
} from './blocks';
import { openTextBlock, SourceFiles } from './located';
import { ordinalOfKey, runOfKey } from './keys';
import { bytesBefore, SECTIONS, SECTIONS_HEAD_BYTES } from './sections';

/** Opened blocks kept by one reader: an explorer page or an export walks a few at a time. */
const CACHED_BLOCKS = 64;

/** A block as one reader holds it: opened, and its rows whole once a caller wanted them all. */
interface Opened {
  block: BlockRows;
  whole: TextRow[] | null;
}

/**
 * Reads examples' texts from `run_texts` by key, a block at a time, keeping the last blocks it
 * opened. Every reader of texts (explorer, exports, sync, the full-text fill) goes through
 * it, so how a block is stored is this module's business alone.
 */
export class TextReader {
  private readonly select;
  private readonly cache = new Map<string, Opened | null>();
  /** Each located block's source is stat'ed once per reader: a page or an export reads many. */
  private readonly files = new SourceFiles();

  /** A block's encoding and, for a sections block, its head alone. */
  private readonly head;
  /** The first bytes of a block. */
  private readonly prefix;

  constructor(private readonly db: Db) {
    this.select = db.prepare(
      `SELECT encoding, data FROM run_texts WHERE run_rowid = ? AND block = ?`,
    );
    this.head = db.prepare(
      `SELECT encoding, CASE WHEN encoding = '${SECTIONS}' THEN substr(data, 1, ?) ELSE data END
         AS data
       FROM run_texts WHERE run_rowid = ? AND block = ?`,
    );
    this.prefix = db
      .prepare(`SELECT substr(data, 1, ?) FROM run_texts WHERE run_rowid = ? AND block = ?`)
      .pluck();
  }

  /**
   * A block's row, or for rows wanted without their outputs a sections block cut before its
   * outputs, and before its inputs too for rows wanted without either: a page's rows lie in a
   * few hundred blocks, and each block's bytes handed over whole were a new buffer of ~90 KB,
   * mostly outputs (at 1M, 400 blocks: ~220–360 ms CPU whole, ~55 ms cut, most of it first
   * touching the buffers' memory); a page's candidates want only their fields, ~1 KB of a
   * block's ~24 KB before its outputs. SQLite reads the whole value either way, into memory it
   * reuses.
   */
  private row(runRowid: number, block: number, want: Wanted) {
    type Row = { encoding: BlockEncoding; data: Buffer } | undefined;
    if (want.output) return this.select.get(runRowid, block) as Row;
    const row = this.head.get(SECTIONS_HEAD_BYTES, runRowid, block) as Row;
    if (!row || row.encoding !== SECTIONS) return row;
    const bytes = bytesBefore(row.data, want.input ? 'output' : 'input');
    return { encoding: row.encoding, data: this.prefix.get(bytes, runRowid, block) as Buffer };
  }

  private open(runRowid: number, block: number, want: Wanted = WHOLE): Opened | null {
    // A block cut before some of its texts is kept apart from the whole one, which a later call
    // may want.
    const cut = want.output ? '' : want.input ? ':no-outputs' : ':fields';
    const name = `${runRowid}:${block}${cut}`;
    const cached = this.cache.get(name);
    if (cached !== undefined) {
      this.cache.delete(name);
      this.cache.set(name, cached);
      return cached;
    }
    const row = this.row(runRowid, block, want);
    const opened = row
      ? { block: openTextBlock(row.encoding, row.data, this.files), whole: null }
      : null;
    this.cache.set(name, opened);
    if (this.cache.size > CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    return opened;
  }

  /** A block's examples, or null when the run has no such block. */
  block(runRowid: number, block: number): TextRow[] | null {
    const opened = this.open(runRowid, block);
    if (!opened) return null;
    opened.whole ??= wholeRows(opened.block);
    return opened.whole;
  }

  /** One example's texts, or null for a key no stored run holds. */
  text(key: number): TextRow | null {
    const ordinal = ordinalOfKey(key);
    const rows = this.block(runOfKey(key), Math.floor(ordinal / BLOCK_SIZE));
    return rows?.[ordinal % BLOCK_SIZE] ?? null;
  }

  /** Several examples' texts by key; keys no stored run holds are left out. */
  texts(keys: Iterable<number>): Map<number, TextRow> {
    return this.rows(keys, WHOLE) as Map<number, TextRow>;
  }

  /**
   * Several examples by key with only the texts `want` asks for (an explorer page wants no
   * output): each block is asked for the rows wanted of it at once, so a located block reads
   * only theirs and a sections block inflates only the sections they need. Keys no stored run
   * holds are left out.
   */
  rows(keys: Iterable<number>, want: Wanted): Map<number, PartialRow> {
    const found = new Map<number, PartialRow>();
    const sorted = [...new Set(keys)].sort((a, b) => a - b);
    const blockOf = (key: number) => Math.floor(ordinalOfKey(key) / BLOCK_SIZE);
    for (let i = 0, j = 0; i < sorted.length; i = j) {
      const run = runOfKey(sorted[i]!);
      const block = blockOf(sorted[i]!);
      while (j < sorted.length && runOfKey(sorted[j]!) === run && blockOf(sorted[j]!) === block)
        j++;
      const opened = this.open(run, block, want);
      if (!opened) continue;
      const held = sorted
        .slice(i, j)
        .filter((key) => ordinalOfKey(key) % BLOCK_SIZE < opened.block.length);
      const rows = opened.block.rows(
        held.map((key) => ordinalOfKey(key) % BLOCK_SIZE),
        want,
      );
      held.forEach((key, k) => found.set(key, rows[k]!));
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
