import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../electron/cli/commands';
import { compareCommand, type CompareFlags } from '../../electron/cli/compare';
import { exportParquetCommand } from '../../electron/cli/parquet';
import { takeVerboseFlag } from '../../electron/cli/verbosity';
import { writeParquetLibrary } from '../fixtures/parquet-library';
import { S3_ENV, startLocalS3, type LocalS3 } from '../fixtures/s3-store';
import { makeService, type Harness } from '../fixtures/service';

/**
 * `compare --engine duckdb --parquet s3://…` where DuckDB has no httpfs (as here): the export's
 * tables are copied with Pairwise's S3 client to a temporary folder, then compared as a local
 * export is, and the copies are removed.
 */

const BUCKET = 'exports';
const PREFIX = 'team/library';
let harness: Harness;
let s3: LocalS3;
let dbPath: string;
let exportDir: string;
let tmp: string;
const saved = { ...process.env };

async function cli(run: (io: Io) => Promise<number>): Promise<{ out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run({ out: (t) => out.push(t), err: (t) => err.push(t) });
  if (code !== 0) throw new Error(`exit ${code}: ${err.join('\n')}`);
  return { out: out.join('\n'), err: err.join('\n') };
}

const compare = (flags: CompareFlags) =>
  cli((io) => compareCommand([], { format: 'json', resamples: '200', ...flags }, io));

beforeAll(async () => {
  harness = makeService();
  const root = path.join(harness.dir, 'runs');
  writeParquetLibrary(root);
  await harness.service.index([root]);
  dbPath = harness.service.db.name;
  exportDir = path.join(harness.dir, 'export');
  await cli((io) => exportParquetCommand(['parquet', exportDir], { db: dbPath }, io));
  s3 = await startLocalS3();
  await s3.createBucket(BUCKET);
  await s3.upload(exportDir, BUCKET, PREFIX);
  tmp = path.join(harness.dir, 'tmp');
  fs.mkdirSync(tmp);
  Object.assign(process.env, S3_ENV, { TMPDIR: tmp });
}, 120_000);

afterAll(async () => {
  process.env = saved;
  await s3?.close();
  await harness.close();
});

describe('the DuckDB engine over s3://', () => {
  it('prints the report of the local export byte for byte, and leaves no copy behind', async () => {
    const local = await compare({ engine: 'duckdb', parquet: exportDir });
    s3.gets.length = 0;
    takeVerboseFlag(['--verbose']);
    let remote;
    try {
      remote = await compare({
        engine: 'duckdb',
        parquet: `s3://${BUCKET}/${PREFIX}/`,
        endpoint: s3.endpoint,
      });
    } finally {
      takeVerboseFlag([]);
    }
    expect(remote.out).toBe(local.out);
    expect(remote.err).toMatch(/no httpfs extension here: copying s3:\/\/exports\/team\/library/);
    // Only the tables the engine reads, each once.
    expect(s3.gets.sort()).toEqual(
      ['conditions', 'examples', 'experiments', 'runs'].map((t) => `${PREFIX}/${t}.parquet`),
    );
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('names the missing table of a prefix that holds no export, and a store that fails', async () => {
    await s3.put(BUCKET, 'other/experiments.parquet', 'not parquet');
    const flags = { engine: 'duckdb', endpoint: s3.endpoint };
    await expect(compare({ ...flags, parquet: `s3://${BUCKET}/other` })).rejects.toThrow(
      /s3:\/\/exports\/other is not a Parquet export of Pairwise: conditions\.parquet is missing/,
    );
    await expect(compare({ ...flags, parquet: 's3://no-such-bucket/x' })).rejects.toThrow(
      /^s3:\/\/no-such-bucket\/x: /,
    );
    s3.denied.add(`${PREFIX}/examples.parquet`);
    try {
      await expect(compare({ ...flags, parquet: `s3://${BUCKET}/${PREFIX}` })).rejects.toThrow(
        /access denied/i,
      );
    } finally {
      s3.denied.clear();
    }
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});
