import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Text } from '../../electron/core/ingest/hash';
import { startCli, type CliResult } from '../fixtures/cli';
import {
  examples,
  writeGenericJsonl,
  writeLmEval,
  writeMechlensRun,
  writePromptfoo,
} from '../fixtures/formats';
import { writeEvalLog } from '../fixtures/inspect';
import { writeRepsRun } from '../fixtures/reps';
import { S3_ENV, startLocalS3, type LocalS3 } from '../fixtures/s3-store';
import { tempDir } from '../fixtures/tmp';

/**
 * An s3:// prefix indexes like the same folder on disk: same runs, same reports, same pages;
 * a second pass reads no object; an edited object is read again, a deleted one goes missing;
 * the store's failures are per source and in words.
 */

let s3: LocalS3;
const scratch = tempDir('pairwise-s3-test-');
const BUCKET = 'team-runs';
const PREFIX = 'lab/exp';
const URL = `s3://${BUCKET}/${PREFIX}`;

/** The CLI's temporary folder, where its index workers copy objects. */
const tmp = path.join(scratch.dir, 'tmp');

function cli(args: string[]): Promise<CliResult> {
  // Asynchronous: the store answers from this process, which a synchronous spawn would block.
  return startCli(args, { ...S3_ENV, TMPDIR: tmp }).done;
}

interface IndexJson {
  sources: { scanned: number; imported: number; unchanged: number; failed: number };
  runs: number;
  problems: { path: string; message: string }[];
}

async function indexJson(args: string[]): Promise<IndexJson> {
  const result = await cli(['index', ...args, '--json']);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as IndexJson;
}

function jsonlRows(count: number, score: number): unknown[] {
  return examples(count).map((e) => ({ id: e.id, input: e.input, output: e.output, score }));
}

function jsonl(rows: unknown[]): string {
  return rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
}

/** One folder of every format, an Inspect .eval zip and a REPS run folder included. */
function writeRunFolder(root: string): void {
  writeMechlensRun(root, { id: 'ref-1', name: 'reference', examples: examples(12) });
  writeMechlensRun(root, {
    id: 'int-1',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    condition: { expect: { refusal_rate: 'decrease' }, compare_to: [], series: null, level: null },
    examples: examples(12, (i) => ({ refused: i % 4 === 0, score: (i % 5) + 1 })),
  });
  // Named by its sidecar: a run its file does not name is named by where the file lives.
  writeGenericJsonl(path.join(root, 'generic'), 'baseline.jsonl', jsonlRows(6, 1), {
    files: { 'baseline.jsonl': { run_id: 'generic-baseline' } },
  });
  writeLmEval(path.join(root, 'lmeval'));
  writePromptfoo(path.join(root, 'promptfoo'));
  fs.mkdirSync(path.join(root, 'inspect'), { recursive: true });
  writeEvalLog(path.join(root, 'inspect', 'popularity.eval'), 'finished');
  writeRepsRun({ dataDir: path.join(root, 'reps') });
}

const local = path.join(scratch.dir, 'runs');
const diskDb = path.join(scratch.dir, 'disk.db');
const s3Db = path.join(scratch.dir, 's3.db');

beforeAll(async () => {
  s3 = await startLocalS3();
  await s3.createBucket(BUCKET);
  writeRunFolder(local);
  fs.mkdirSync(tmp);
  const modified = await s3.upload(local, BUCKET, PREFIX);
  // The copies carry the objects' dates, which is what an importer sees of a file's age.
  for (const [key, date] of modified) {
    const file = path.join(local, ...key.slice(PREFIX.length + 1).split('/'));
    fs.utimesSync(file, date, date);
  }
}, 60_000);

afterAll(async () => {
  await s3?.close();
  scratch.cleanup();
});

function sources(db: string): { path: string; status: string; etag: string | null }[] {
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare(`SELECT path, status, etag FROM sources ORDER BY path`).all() as {
      path: string;
      status: string;
      etag: string | null;
    }[];
  } finally {
    handle.close();
  }
}

describe('an s3:// prefix as a source', () => {
  it('indexes, compares and pages exactly like the same folder on disk', async () => {
    const disk = await indexJson([local, '--db', diskDb]);
    const remote = await indexJson([URL, '--db', s3Db, '--endpoint', s3.endpoint]);
    expect(remote.problems).toEqual(disk.problems);
    expect(remote.sources).toEqual(disk.sources);
    expect(remote.runs).toBe(disk.runs);
    expect(disk.sources.failed).toBe(0);
    expect(disk.sources.imported).toBeGreaterThanOrEqual(7);

    const compare = ['compare', '--format', 'json', '--resamples', '500'];
    const fromDisk = await cli([...compare, '--db', diskDb]);
    const fromS3 = await cli([...compare, '--db', s3Db]);
    expect(fromDisk.status).toBe(0);
    expect(fromS3.stdout).toBe(fromDisk.stdout);

    const page = ['examples', '--json', '--experiment', 'exp-test', '--limit', '50'];
    const diskPage = await cli([...page, '--db', diskDb]);
    expect(diskPage.status).toBe(0);
    expect((await cli([...page, '--db', s3Db])).stdout).toBe(diskPage.stdout);

    const stored = sources(s3Db);
    expect(stored.every((s) => s.path.startsWith(`${URL}/`))).toBe(true);
    expect(stored.every((s) => s.etag !== null && s.status === 'imported')).toBe(true);
    // Each unit's copies are removed once it is stored.
    expect(fs.readdirSync(tmp).filter((name) => name.startsWith('pairwise-s3-'))).toEqual([]);
  }, 120_000);

  it('reads no object again while ETags and sizes are unchanged', async () => {
    s3.gets.length = 0;
    const again = await indexJson([URL, '--db', s3Db, '--endpoint', s3.endpoint]);
    expect(again.sources.imported).toBe(0);
    expect(again.sources.unchanged).toBe(again.sources.scanned);
    expect(s3.gets).toEqual([]);
  }, 60_000);

  it('compare s3://… gives the report compare of the folder on disk gives', async () => {
    const compare = ['compare', '--format', 'json', '--resamples', '500'];
    const fromDisk = await cli([...compare, local]);
    const fromS3 = await cli([...compare, URL, '--endpoint', s3.endpoint]);
    expect(fromDisk.status).toBe(0);
    expect(fromS3.stderr).toBe(fromDisk.stderr);
    expect(fromS3.stdout).toBe(fromDisk.stdout);
  }, 60_000);

  it('compare A B takes two addresses as baseline and candidate', async () => {
    for (const [side, id] of [
      ['a', 'ref-1'],
      ['b', 'int-1'],
    ] as const) {
      const file = path.join(local, '.mechlens', 'runs', `${id}.json`);
      await s3.put(BUCKET, `ab/${side}/.mechlens/runs/${id}.json`, fs.readFileSync(file));
    }
    const result = await cli([
      'compare',
      `s3://${BUCKET}/ab/a`,
      `s3://${BUCKET}/ab/b`,
      '--endpoint',
      s3.endpoint,
      '--format',
      'json',
      '--resamples',
      '500',
    ]);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { runs: { run_id: string; role: string }[] };
    expect(report.runs.map((r) => r.run_id).sort()).toEqual(['int-1', 'ref-1']);
  }, 60_000);

  it('indexes a unit listed by two nested addresses once', async () => {
    const nested = await indexJson([
      URL,
      `${URL}/lmeval`,
      '--db',
      path.join(scratch.dir, 'nested.db'),
      '--endpoint',
      s3.endpoint,
    ]);
    const alone = await indexJson([
      URL,
      '--db',
      path.join(scratch.dir, 'alone.db'),
      '--endpoint',
      s3.endpoint,
    ]);
    expect(nested.sources).toEqual(alone.sources);
    expect(nested.runs).toBe(alone.runs);
  }, 60_000);

  it('imports an edited object again, under the same address-named run, and marks a deleted one missing', async () => {
    const key = `${PREFIX}/loose/unnamed.jsonl`;
    const runId = sha256Text(`s3://${BUCKET}/${key}`).slice(0, 32);
    const examplesOf = async () => {
      const runs = JSON.parse((await cli(['runs', '--db', s3Db, '--json'])).stdout) as {
        run_id: string;
        examples: number;
      }[];
      return runs.find((r) => r.run_id === runId)?.examples;
    };
    await s3.put(BUCKET, key, jsonl(jsonlRows(6, 1)));
    expect((await indexJson([URL, '--db', s3Db, '--endpoint', s3.endpoint])).sources.imported).toBe(
      1,
    );
    expect(await examplesOf()).toBe(6);

    await s3.put(BUCKET, key, jsonl(jsonlRows(8, 0)));
    await s3.remove(BUCKET, `${PREFIX}/promptfoo/output.json`);
    s3.gets.length = 0;
    const pass = await indexJson([URL, '--db', s3Db, '--endpoint', s3.endpoint]);
    expect(pass.sources.imported).toBe(1);
    expect(s3.gets).toEqual([key]);
    expect(pass.sources.unchanged).toBe(pass.sources.scanned - 1);
    expect(await examplesOf()).toBe(8);
    const byPath = new Map(sources(s3Db).map((s) => [s.path, s.status]));
    expect(byPath.get(`s3://${BUCKET}/${PREFIX}/promptfoo/output.json`)).toBe('missing');
  }, 60_000);

  it('a denied object fails alone, with a sentence; the rest of the prefix imports', async () => {
    const db = path.join(scratch.dir, 'denied.db');
    const key = `${PREFIX}/inspect/popularity.eval`;
    s3.denied.add(key);
    try {
      const pass = await indexJson([URL, '--db', db, '--endpoint', s3.endpoint]);
      expect(pass.sources.failed).toBe(1);
      expect(pass.sources.imported).toBe(pass.sources.scanned - 1);
      expect(pass.problems).toEqual([
        {
          path: `s3://${BUCKET}/${key}`,
          message: expect.stringMatching(/^access denied: the credentials in use may not read/),
        },
      ]);
    } finally {
      s3.denied.delete(key);
    }
  }, 60_000);

  it('says in words when the bucket is missing, the keys are wrong or the store is unreachable', async () => {
    const db = path.join(scratch.dir, 'errors.db');
    const missing = await indexJson([
      `s3://no-such-bucket/x`,
      '--db',
      db,
      '--endpoint',
      s3.endpoint,
    ]);
    expect(missing.problems).toEqual([
      {
        path: 's3://no-such-bucket/x',
        message: `the bucket "no-such-bucket" does not exist on ${s3.endpoint}`,
      },
    ]);

    const badKeys = await startCli(
      ['index', URL, '--db', db, '--endpoint', s3.endpoint, '--json'],
      {
        ...S3_ENV,
        AWS_ACCESS_KEY_ID: 'WRONG',
      },
    ).done;
    expect(JSON.parse(badKeys.stdout).problems[0].message).toMatch(
      /refused the credentials \(InvalidAccessKeyId\): check AWS_ACCESS_KEY_ID/,
    );

    const closed = 'http://127.0.0.1:9';
    const unreachable = await indexJson([URL, '--db', db, '--endpoint', closed]);
    expect(unreachable.problems).toEqual([
      {
        path: URL,
        message: `could not reach ${closed}: the connection was refused (is the service running and the port right?)`,
      },
    ]);
  }, 60_000);

  it('an unreachable store leaves what the library holds from it as it was', async () => {
    const before = sources(s3Db);
    await indexJson([URL, '--db', s3Db, '--endpoint', 'http://127.0.0.1:9']);
    const after = sources(s3Db).filter((s) => s.path !== URL);
    expect(after).toEqual(before);
  }, 60_000);

  it('refuses an address that names no bucket, and an endpoint that is not a URL', async () => {
    const bad = await cli(['index', 's3://', '--db', s3Db]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/is not a bucket name/);
    const endpoint = await cli(['index', URL, '--db', s3Db, '--endpoint', 'minio:9000']);
    expect(endpoint.status).toBe(2);
    expect(endpoint.stderr).toMatch(/must start with http/);
  }, 60_000);
});
