import type { RequestOutput } from '../../shared/contract';
import type { Trace } from '../../shared/trace';
import { pairScope } from './compare/filters';
import type { Db } from './db/open';
import { NotFoundError } from './errors';
import { unpackTrace } from './ingest/trace-pack';

/** The transcripts of one example's two sides in a comparison (null where a side has none). */
export function exampleTraces(
  db: Db,
  input: { reportKey: string; pair: number; exampleId: string },
): RequestOutput<'examples:trace'> {
  const scope = pairScope(db, input.reportKey, input.pair);
  if (!scope) throw new NotFoundError('That comparison is no longer cached: run it again.');
  const row = db
    .prepare(
      `SELECT ref_rowid, cand_rowid FROM pair_rows WHERE report_id = ? AND pair = ? AND example_id = ?`,
    )
    .get(scope.reportId, input.pair, input.exampleId) as
    { ref_rowid: number | null; cand_rowid: number | null } | undefined;
  if (!row) throw new NotFoundError(`Example "${input.exampleId}" is not in this comparison.`);
  const read = db.prepare(`SELECT trace FROM example_traces WHERE example_rowid = ?`);
  const trace = (rowid: number | null): Trace | null => {
    if (rowid === null) return null;
    const found = read.get(rowid) as { trace: Buffer } | undefined;
    return found ? unpackTrace(found.trace) : null;
  };
  return { reference: trace(row.ref_rowid), candidate: trace(row.cand_rowid) };
}
