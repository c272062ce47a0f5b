import type { Db } from '../db/open';
import { beginsWordOf, isAscii } from './ascii-words';

/**
 * What a scan of one run has found so far, one slot per example by its ordinal: how many of
 * the search's terms it holds, and whether it matches. Terms are counted one after another
 * over a chunk's texts (`stamp` says which term counted an example last, so each counts once).
 */
export class ScanState {
  readonly hits: Uint8Array;
  private readonly count: Uint16Array;
  private readonly stamp: Uint16Array;

  constructor(
    readonly examples: number,
    /** The search's words folded by FTS5, one term each. */
    readonly terms: readonly string[],
  ) {
    this.hits = new Uint8Array(examples);
    this.count = new Uint16Array(examples);
    this.stamp = new Uint16Array(examples);
  }

  /** The example holds term `t`, as the beginning of one of its words. */
  holds(ordinal: number, t: number): void {
    if (this.stamp[ordinal] === t + 1) return;
    this.stamp[ordinal] = t + 1;
    this.count[ordinal]!++;
  }

  holdsAll(ordinal: number): boolean {
    return this.count[ordinal] === this.terms.length;
  }

  /**
   * Decides an example from its ASCII texts alone (already lowered): it matches when each
   * term begins a word of one of them.
   */
  decide(ordinal: number, lowered: string[]): void {
    this.hits[ordinal] = this.terms.every((term) =>
      lowered.some((text) => beginsWordOf(text, term)),
    )
      ? 1
      : 0;
  }
}

/** Rows put into the scratch index at once. */
const FTS_BATCH = 2048;

/**
 * Decides examples read whole (their texts checked as the fill reads them): both texts ASCII
 * by the rules of ascii-words.ts, any other in a scratch FTS5 table tokenized as the index is,
 * asked the search's own query, so what unicode61 does past ASCII is never guessed.
 */
export class WholeRows {
  private readonly insert;
  private readonly matching;
  private readonly clear;
  private readonly pending: [ordinal: number, input: string, output: string][] = [];

  constructor(
    db: Db,
    private readonly state: ScanState,
    private readonly query: string,
  ) {
    // As migration 015 creates `examples_fts`: the same tokenizer, the same query semantics.
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scan
      USING fts5(input, output, content='', tokenize='unicode61', detail=none)`);
    this.insert = db.prepare(
      `INSERT INTO temp.search_scan (rowid, input, output) VALUES (?, ?, ?)`,
    );
    this.matching = db
      .prepare(`SELECT rowid FROM temp.search_scan WHERE search_scan MATCH ?`)
      .pluck();
    this.clear = db.prepare(`INSERT INTO temp.search_scan (search_scan) VALUES ('delete-all')`);
    this.clear.run();
  }

  add(ordinal: number, input: string, output: string): void {
    if (isAscii(input) && isAscii(output)) {
      this.state.decide(ordinal, [input.toLowerCase(), output.toLowerCase()]);
      return;
    }
    this.pending.push([ordinal, input, output]);
    if (this.pending.length >= FTS_BATCH) this.flush();
  }

  /** Asks the scratch index about the rows added since the last flush. */
  flush(): void {
    if (this.pending.length === 0) return;
    // rowid 0 is FTS5's too, but an ordinal + 1 keeps clear of any doubt.
    for (const [ordinal, input, output] of this.pending.splice(0))
      this.insert.run(ordinal + 1, input, output);
    for (const rowid of this.matching.iterate(this.query) as IterableIterator<number>)
      this.state.hits[rowid - 1] = 1;
    this.clear.run();
  }
}
