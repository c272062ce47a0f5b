import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { JsonObject } from '../../../shared/model';
import type { JobProgress } from '../../../shared/jobs';
import { RunColumnsBuilder } from '../columns/encode';
import { writeRunColumns } from '../columns/store';
import { writeBriefly } from '../db/busy';
import type { Db } from '../db/open';
import { ConflictError } from '../errors';
import { CancelledError } from '../jobs/protocol';
import { exampleKey, keySpan } from './keys';
import { NOT_LOCATED, TextBlockBuilder, writeRunTexts } from './write';

/**
 * Runs of a library indexed before texts moved into blocks: they still have example rows (or,
 * older still, no column store). Rowid and size, in rowid order.
 */
export function runsToConvert(db: Db): { rowid: number; examples: number }[] {
  return db
    .prepare(
      `SELECT rowid, example_count AS examples FROM runs
       WHERE EXISTS (SELECT 1 FROM examples e WHERE e.run_rowid = runs.rowid)
          OR NOT EXISTS (SELECT 1 FROM run_columns c WHERE c.run_rowid = runs.rowid)
       ORDER BY rowid`,
    )
    .all() as { rowid: number; examples: number }[];
}

/** A request that needs a run the conversion has not reached yet. */
export class ConversionPendingError extends ConflictError {}

/**
 * Refuses, with how far the conversion is, a request that needs a run still in rows: answering
 * from the rows would mix old rowids with keys, and waiting could take minutes.
 */
export function requireConverted(db: Db, runRowids: Iterable<number>): void {
  const inRows = db.prepare(`SELECT 1 FROM examples WHERE run_rowid = ? LIMIT 1`).pluck();
  const hasColumns = db.prepare(`SELECT 1 FROM run_columns WHERE run_rowid = ? LIMIT 1`).pluck();
  for (const rowid of runRowids) {
    if (!inRows.get(rowid) && hasColumns.get(rowid)) continue;
    const left = runsToConvert(db).length;
    const total = db.prepare(`SELECT count(*) FROM runs`).pluck().get() as number;
    throw new ConversionPendingError(
      `This library is being converted: ${total - left} of ${total} runs done. ` +
        'Try again when "Preparing runs for comparison" has finished.',
    );
  }
}

const CHUNK = 20_000;

interface OldRow {
  rowid: number;
  id: string;
  input: string;
  output: string;
  fields: string;
  target: string | null;
  error: string | null;
  input_hash: string;
  output_hash: string;
}

/**
 * Moves one run from example rows to blocks, as the indexer would have written it: its
 * examples in rowid order (the order they were imported) get keys, blocks and a column store;
 * its transcripts (parked at minus their old rowid by migration 019) move to their keys; its
 * rows go; it becomes unsearchable until the background fill indexes its blocks. The caller
 * holds the write transaction.
 */
export function convertRun(db: Db, runRowid: number): void {
  const read = db.prepare(
    `SELECT rowid, example_id AS id, input, output, fields, target, error, input_hash, output_hash
     FROM examples WHERE run_rowid = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const moveTrace = db.prepare(
    `UPDATE example_traces SET example_rowid = ? WHERE example_rowid = ?`,
  );
  const columns = new RunColumnsBuilder();
  const blocks = new TextBlockBuilder();
  let ordinal = 0;
  for (let after = -1; ;) {
    const rows = read.all(runRowid, after, CHUNK) as OldRow[];
    for (const row of rows) {
      const key = exampleKey(runRowid, ordinal++);
      moveTrace.run(key, -row.rowid);
      columns.add({
        id: row.id,
        rowid: key,
        inputHash: row.input_hash,
        outputHash: row.output_hash,
        error: row.error,
        fields: JSON.parse(row.fields) as JsonObject,
      });
    }
    writeRunTexts(
      db,
      runRowid,
      blocks.add(
        rows.map((row) => ({
          ...row,
          located: NOT_LOCATED,
          inputHash: row.input_hash,
          outputHash: row.output_hash,
        })),
      ),
    );
    if (rows.length < CHUNK) break;
    after = rows[rows.length - 1]!.rowid;
  }
  writeRunTexts(db, runRowid, blocks.end());
  writeRunColumns(db, runRowid, columns.encode());
  db.prepare(`DELETE FROM examples WHERE run_rowid = ?`).run(runRowid);
  const span = keySpan(runRowid, ordinal);
  db.prepare(
    `INSERT INTO run_search (run_rowid, first_rowid, last_rowid) VALUES (?, ?, ?)
     ON CONFLICT(run_rowid) DO UPDATE SET indexed_to = 0, done = 0, ready = 0,
       first_rowid = excluded.first_rowid, last_rowid = excluded.last_rowid`,
  ).run(runRowid, span?.first ?? null, span?.last ?? null);
}

/**
 * Converts every run still in rows, a run per transaction, yielding between runs so requests
 * and a cancel get through. A run re-indexed meanwhile was written in blocks by the indexer,
 * so each run is checked again inside its transaction.
 */
export async function convertLibrary(
  db: Db,
  signal: AbortSignal,
  progress: (p: JobProgress) => void,
): Promise<number> {
  const runs = runsToConvert(db);
  const total = runs.reduce((sum, r) => sum + r.examples, 0);
  const pending = db.prepare(
    `SELECT 1 FROM runs WHERE rowid = ? AND (EXISTS (SELECT 1 FROM examples WHERE run_rowid = ?)
       OR NOT EXISTS (SELECT 1 FROM run_columns WHERE run_rowid = ?))`,
  );
  let done = 0;
  for (const run of runs) {
    if (signal.aborted) throw new CancelledError();
    progress({ phase: 'Preparing runs for comparison', done, total });
    await writeBriefly(
      db,
      () =>
        db
          .transaction(() => {
            if (pending.get(run.rowid, run.rowid, run.rowid)) convertRun(db, run.rowid);
          })
          .immediate(),
      async () => {
        await yieldToEvents();
        if (signal.aborted) throw new CancelledError();
      },
    );
    done += run.examples;
    await yieldToEvents();
  }
  progress({ phase: 'Preparing runs for comparison', done, total });
  return runs.length;
}
