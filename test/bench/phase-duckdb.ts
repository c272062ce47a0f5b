/**
 * The same paired comparison as a data-savvy researcher would write it in DuckDB: read both
 * run files, unnest the examples, join by example id, mean difference per metric and a count
 * of changed outputs. No intervals, no checks: it is the floor Pairwise is measured against.
 */

import { DuckDBInstance } from '@duckdb/node-api';
import { RssSampler, median, timed, type RssPeak } from './measure';
import { reportProgress } from './progress';

export interface DuckArgs {
  reference: { file: string; runId: string };
  candidate: { file: string; runId: string };
}

export interface DuckResult {
  version: string;
  /** Instance + load into a table + the join, from nothing. */
  coldSeconds: number;
  loadSeconds: number;
  /** Median of three runs of the join on the loaded table. */
  warmSeconds: number;
  warmRuns: number[];
  peakRss: RssPeak;
  paired: number;
  outputChanged: number;
  differences: Record<string, number>;
  error: string | null;
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * A run file is one JSON object, so DuckDB must be allowed objects as large as the file
 * (its default maximum_object_size is 16 MB).
 */
function loadSql(args: DuckArgs): string {
  const files = [args.reference.file, args.candidate.file].map(sqlString).join(', ');
  return `
    CREATE TABLE ex AS
    SELECT run_id, e.id AS example_id, e.input AS input, e.output AS output,
           e.fields.refused AS refused, e.fields.score AS score, e.fields.length AS length
    FROM (
      SELECT id AS run_id, unnest(examples) AS e
      FROM read_json([${files}], format = 'auto', maximum_object_size = 4000000000)
    )`;
}

function joinSql(args: DuckArgs): string {
  return `
    SELECT count(*) AS paired,
           count(*) FILTER (WHERE c.output <> r.output) AS output_changed,
           count(*) FILTER (WHERE c.input <> r.input) AS input_mismatch,
           avg(c.refused::INTEGER - r.refused::INTEGER) AS refused,
           avg(c.score - r.score) AS score,
           avg(c.length - r.length) AS length
    FROM ex r JOIN ex c USING (example_id)
    WHERE r.run_id = ${sqlString(args.reference.runId)} AND c.run_id = ${sqlString(args.candidate.runId)}`;
}

export async function duckdbPhase(args: DuckArgs): Promise<DuckResult> {
  const sampler = new RssSampler();
  sampler.reset();
  const result: DuckResult = {
    version: '',
    coldSeconds: NaN,
    loadSeconds: NaN,
    warmSeconds: NaN,
    warmRuns: [],
    peakRss: sampler.peak(),
    paired: 0,
    outputChanged: 0,
    differences: {},
    error: null,
  };
  try {
    const start = performance.now();
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    reportProgress({ phase: 'loading both runs', done: 0, total: 5 });
    const load = await timed(() => connection.run(loadSql(args)));
    const join = () => connection.runAndReadAll(joinSql(args));
    reportProgress({ phase: 'joining, cold', done: 1, total: 5 });
    const first = await join();
    result.coldSeconds = (performance.now() - start) / 1000;
    result.loadSeconds = load.seconds;
    for (let i = 0; i < 3; i++) {
      reportProgress({ phase: 'joining, warm', done: 2 + i, total: 5 });
      result.warmRuns.push((await timed(join)).seconds);
    }
    result.warmSeconds = median(result.warmRuns);
    const row = first.getRowObjectsJson()[0] as Record<string, string | number | null>;
    result.paired = Number(row.paired);
    result.outputChanged = Number(row.output_changed);
    for (const field of ['refused', 'score', 'length'])
      result.differences[field] = Number(row[field]);
    const version = await connection.runAndReadAll('SELECT version() AS v');
    result.version = String((version.getRowObjectsJson()[0] as { v: string }).v);
    connection.closeSync();
    instance.closeSync();
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.peakRss = sampler.peak();
  await sampler.close();
  return result;
}
