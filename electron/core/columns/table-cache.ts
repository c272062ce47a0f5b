import type { Db } from '../db/open';
import { columnsStamp, readRunColumns } from './store';
import { readRunTable, type RunTable } from './table';

interface Entry {
  stamp: string;
  table: RunTable;
}

/**
 * The column stores a compare worker read for its last comparison, kept for the next one: a
 * comparison of the same runs with other settings (a reference or a resample count) then skips
 * reading and decoding them again, ~80 MB and a quarter of a second per million examples. An
 * entry is used only while the run's stamp (columnsStamp) is unchanged, so a re-indexed run is
 * read again; the stores of runs the next comparison does not use are let go before it reads.
 */
export class RunTableCache {
  private entries = new Map<string, Entry>();

  /** Each run's table, in the order asked, or null for the first run this version cannot read. */
  tables(db: Db, runRowids: number[]): RunTable[] | null {
    const keys = runRowids.map((rowid) => `${db.name}\0${rowid}`);
    for (const key of this.entries.keys()) if (!keys.includes(key)) this.entries.delete(key);
    const tables: RunTable[] = [];
    for (const [index, runRowid] of runRowids.entries()) {
      const key = keys[index]!;
      const stamp = columnsStamp(db, runRowid);
      const cached = this.entries.get(key);
      if (stamp !== null && cached?.stamp === stamp) {
        tables.push(cached.table);
        continue;
      }
      this.entries.delete(key);
      const bytes = stamp === null ? null : readRunColumns(db, runRowid);
      const table = bytes && readRunTable(bytes);
      if (!table) return null;
      // An in-memory library has no name to key it by: it is read each time.
      if (!db.memory) this.entries.set(key, { stamp: stamp!, table });
      tables.push(table);
    }
    return tables;
  }
}
