import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { JsonObject } from '../../../shared/model';
import type { JobProgress } from '../../../shared/jobs';
import { writeBriefly } from '../db/busy';
import { CancelledError } from '../jobs/protocol';
import type { Db } from '../db/open';
import { RunColumnsBuilder } from './encode';
import { writeRunColumns } from './store';

/** Runs indexed before column stores existed (or whose store was lost): rowid and size. */
export function runsWithoutColumns(db: Db): { rowid: number; examples: number }[] {
  return db
    .prepare(
      `SELECT rowid, example_count AS examples FROM runs
       WHERE NOT EXISTS (SELECT 1 FROM run_columns c WHERE c.run_rowid = runs.rowid) ORDER BY rowid`,
    )
    .all() as { rowid: number; examples: number }[];
}

const CHUNK = 20_000;

/** A run's column store built from its example rows, as the indexer would have written it. */
export function columnsFromRows(db: Db, runRowid: number): RunColumnsBuilder {
  const builder = new RunColumnsBuilder();
  const read = db.prepare(
    `SELECT rowid, example_id AS id, input_hash, output_hash, error, fields FROM examples
     WHERE run_rowid = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
  );
  let after = -1;
  for (;;) {
    const rows = read.all(runRowid, after, CHUNK) as {
      rowid: number;
      id: string;
      input_hash: string;
      output_hash: string;
      error: string | null;
      fields: string;
    }[];
    for (const row of rows)
      builder.add({
        id: row.id,
        rowid: row.rowid,
        inputHash: row.input_hash,
        outputHash: row.output_hash,
        error: row.error,
        fields: JSON.parse(row.fields) as JsonObject,
      });
    if (rows.length < CHUNK) return builder;
    after = rows[rows.length - 1]!.rowid;
  }
}

/**
 * Gives every run without a column store one, a run per transaction, yielding between runs so
 * requests and a cancel get through. A run re-indexed meanwhile got its store from the
 * indexer, so each run is checked again inside its transaction.
 */
export async function backfillRunColumns(
  db: Db,
  signal: AbortSignal,
  progress: (p: JobProgress) => void,
): Promise<number> {
  const runs = runsWithoutColumns(db);
  const total = runs.reduce((sum, r) => sum + r.examples, 0);
  const missing = db.prepare(
    `SELECT 1 FROM runs WHERE rowid = ? AND NOT EXISTS (SELECT 1 FROM run_columns WHERE run_rowid = ?)`,
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
            if (missing.get(run.rowid, run.rowid))
              writeRunColumns(db, run.rowid, columnsFromRows(db, run.rowid).encode());
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
