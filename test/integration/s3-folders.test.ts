import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../shared/jobs';
import { openDatabase } from '../../electron/core/db/open';
import type { IndexTask } from '../../electron/core/ingest/index-unit';
import { indexPaths } from '../../electron/core/ingest/indexer';
import type { WorkerPool } from '../../electron/core/jobs/pool';
import { IndexStore } from '../../electron/core/ingest/store';
import { indexRemoteUnit } from '../../electron/core/sources/s3-unit';
import type { RequestOutput } from '../../shared/contract';
import { examples, mechlensRecord } from '../fixtures/formats';
import { S3_ENV, startLocalS3, type LocalS3 } from '../fixtures/s3-store';
import { callOk, makeService, type Harness } from '../fixtures/service';

/**
 * An s3:// address added as a folder (the UI's "Add folder"): indexed at its endpoint, kept
 * with it, polled while watched (a bucket sends no change events), and removable like a folder.
 */

let s3: LocalS3;
let harness: Harness;
const saved = { ...process.env };
const BUCKET = 'polled-runs';
const URL = `s3://${BUCKET}/team`;

function record(id: string, count: number): string {
  return JSON.stringify(mechlensRecord({ id, examples: examples(count) }));
}

async function runIds(): Promise<string[]> {
  const runs = await callOk<RequestOutput<'runs:list'>>(harness.service, 'runs:list', {});
  return runs.map((r) => r.run_id).sort();
}

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  s3 = await startLocalS3();
  await s3.createBucket(BUCKET);
  await s3.put(BUCKET, 'team/.mechlens/runs/first.json', record('first', 3));
  harness = makeService({ watch: true, bucketPollMs: 200 });
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await s3?.close();
  process.env = saved;
});

describe('an s3:// address as a library folder', () => {
  it('is indexed at its endpoint, polled while watched, and removed like a folder', async () => {
    const { service } = harness;
    const { jobId } = await callOk<{ jobId: string }>(service, 'library:addFolder', {
      path: `${URL}/`,
      watch: true,
      endpoint: s3.endpoint,
    });
    await service.jobs.wait(jobId);
    expect(await runIds()).toEqual(['first']);

    await s3.put(BUCKET, 'team/.mechlens/runs/second.json', record('second', 2));
    await expect.poll(runIds, { timeout: 30_000, interval: 100 }).toEqual(['first', 'second']);

    const summary = await callOk<RequestOutput<'library:summary'>>(service, 'library:summary', {});
    expect(JSON.stringify(summary)).toContain(URL);

    const removed = await callOk<{ removed: boolean; runs: number }>(
      service,
      'library:removeFolder',
      { path: URL },
    );
    expect(removed).toMatchObject({ removed: true, runs: 2 });
    expect(await runIds()).toEqual([]);
  }, 60_000);

  it('cancelling a pass stops a read in flight and stores nothing of its unit', async () => {
    const { service } = harness;
    const key = 'slow/.mechlens/runs/stuck.json';
    await s3.put(BUCKET, key, record('stuck', 2));
    s3.stalled.add(key);
    try {
      const jobId = service.startIndex([`s3://${BUCKET}/slow`], 'Indexing', {
        endpoint: s3.endpoint,
      });
      await expect.poll(() => s3.gets.includes(key), { timeout: 30_000, interval: 50 }).toBe(true);
      service.jobs.cancel(jobId);
      expect((await service.jobs.wait(jobId))?.state).toBe('cancelled');
      expect(await runIds()).not.toContain('stuck');
    } finally {
      s3.stalled.delete(key);
    }
  }, 60_000);

  it('a temporary folder that cannot be written fails the unit in words, not as a crash', async () => {
    const db = openDatabase(path.join(harness.dir, 'no-tmp.db'));
    const tmp = path.join(harness.dir, 'no-such-folder');
    const address = `s3://${BUCKET}/team/.mechlens/runs/first.json`;
    const objects = [
      { key: 'team/.mechlens/runs/first.json', size: 1, etag: '"x"', lastModifiedMs: 0 },
    ];
    process.env.TMPDIR = tmp;
    try {
      const result = await indexRemoteUnit(
        {
          unit: { path: address, kind: 'file', files: [address] },
          folder: null,
          dbPath: db.name,
          remote: { bucket: BUCKET, endpoint: s3.endpoint, objects },
        },
        new IndexStore(db),
        db,
        new AbortController().signal,
        () => undefined,
      );
      expect(result).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(
          new RegExp(`^could not copy the object to a temporary file in ${tmp} \\(ENOENT`),
        ),
      });
    } finally {
      if (saved.TMPDIR === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved.TMPDIR;
      db.close();
    }
  });

  it('progress counts the bytes of the objects a pass copies', async () => {
    const db = openDatabase(path.join(harness.dir, 'progress.db'));
    const body = record('counted', 40);
    const size = Buffer.byteLength(body);
    await s3.put(BUCKET, 'progress/.mechlens/runs/counted.json', body);
    const store = new IndexStore(db);
    // The pool as an index worker runs a task, in this thread.
    const pool = {
      run: (task: IndexTask, options: { signal: AbortSignal; onProgress?(p: JobProgress): void }) =>
        indexRemoteUnit({ ...task, remote: task.remote! }, store, db, options.signal, (bytes) =>
          options.onProgress?.({ phase: 'indexing', done: 0, total: null, bytes }),
        ),
    } as unknown as WorkerPool;
    const seen: JobProgress[] = [];
    try {
      const stats = await indexPaths({
        db,
        pool,
        paths: [`s3://${BUCKET}/progress`],
        signal: new AbortController().signal,
        progress: (p) => seen.push(p),
        s3: { endpoint: s3.endpoint },
      });
      expect(stats).toMatchObject({ problems: [], sources: { imported: 1 } });
      const indexing = seen.filter((p) => p.phase === 'indexing');
      expect(indexing.every((p) => p.totalBytes === size)).toBe(true);
      // The whole object copied while its unit is still being stored.
      expect(indexing.some((p) => p.bytes === size && p.detail !== null)).toBe(true);
      expect(seen.at(-1)).toMatchObject({ phase: 'done', bytes: size, totalBytes: size });
    } finally {
      db.close();
    }
  });

  it('refuses an address that names no bucket, and an endpoint that is not a URL, in words', async () => {
    await expect(
      callOk(harness.service, 'library:addFolder', { path: 's3://', watch: false }),
    ).rejects.toThrow(/bad_request: "" is not a bucket name/);
    await expect(
      callOk(harness.service, 'library:addFolder', { path: URL, endpoint: 'ftp://x' }),
    ).rejects.toThrow(/bad_request: .*must start with http/);
  });
});
