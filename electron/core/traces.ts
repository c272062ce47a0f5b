import type { RequestOutput } from '../../shared/contract';
import type { Trace } from '../../shared/trace';
import { NO_ROWID } from './compare/codes';
import { pairExample } from './compare/pager';
import type { Db } from './db/open';
import { unpackTrace } from './ingest/trace-pack';

/** The transcripts of one example's two sides in a comparison (null where a side has none). */
export function exampleTraces(
  db: Db,
  input: { reportKey: string; pair: number; exampleId: string },
): RequestOutput<'examples:trace'> {
  const { view, k } = pairExample(db, input);
  const read = db.prepare(`SELECT trace FROM example_traces WHERE example_rowid = ?`);
  const trace = (rowid: number): Trace | null => {
    if (rowid === NO_ROWID) return null;
    const found = read.get(rowid) as { trace: Buffer } | undefined;
    return found ? unpackTrace(found.trace) : null;
  };
  return { reference: trace(view.refRowids[k]!), candidate: trace(view.candRowids[k]!) };
}
