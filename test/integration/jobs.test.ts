import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { JobManager } from '../../electron/core/jobs/manager';
import { WorkerPool } from '../../electron/core/jobs/pool';
import { CancelledError, WorkerStartError } from '../../electron/core/jobs/protocol';
import { sourceWorkerEntry, type WorkerEntry } from '../../electron/core/jobs/worker-path';
import type { Job, JobProgress } from '../../shared/jobs';
import { tempDir } from '../fixtures/tmp';
import { cleanupsAfterEach } from '../fixtures/cleanups';

const counting = sourceWorkerEntry(path.join(__dirname, '../fixtures/workers/counting.worker.ts'));
const stuck = sourceWorkerEntry(path.join(__dirname, '../fixtures/workers/stuck.worker.ts'));

const cleanups = cleanupsAfterEach();

interface Counted {
  counted: number;
  thread: number;
}

function setup(): {
  db: Db;
  progress: { jobId: string; progress: JobProgress }[];
  finished: Job[];
  jobs: JobManager;
} {
  const t = tempDir();
  const db = openDatabase(path.join(t.dir, 'p.db'));
  db.exec(`CREATE TABLE results (value INTEGER) STRICT`);
  cleanups.push(t.cleanup, () => db.close());
  const progress: { jobId: string; progress: JobProgress }[] = [];
  const finished: Job[] = [];
  const jobs = new JobManager(db, {
    started: () => undefined,
    progress: (jobId, p) => progress.push({ jobId, progress: p }),
    finished: (job) => finished.push(job),
  });
  return { db, progress, finished, jobs };
}

describe('worker pool and jobs', () => {
  it('a job that ends after its connection went away (a crash) ends without throwing', async () => {
    const { db, jobs, finished } = setup();
    const id = jobs.start('search', 'slice', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    db.close();
    // As search's scheduler does when a slice ends.
    const ended = jobs.wait(id);
    await expect(jobs.shutdown()).resolves.toBeUndefined();
    expect((await ended)?.state).toBe('cancelled');
    expect(finished.map((job) => job.state)).toEqual(['cancelled']);
  });

  it('starts and ends a job while another connection holds the write lock, and records it once it can', async () => {
    const { db, jobs, finished } = setup();
    const other = openDatabase(db.name);
    cleanups.push(() => other.close());
    other.exec('BEGIN IMMEDIATE');
    const id = jobs.start('search', 'under the lock', async () => undefined);
    expect(jobs.list().map((job) => [job.title, job.state])).toEqual([
      ['under the lock', 'running'],
    ]);
    expect((await jobs.wait(id))?.state).toBe('finished');
    expect(finished.map((job) => job.title)).toEqual(['under the lock']);
    const row = () => db.prepare(`SELECT state FROM jobs WHERE id = ?`).pluck().get(id);
    expect(row()).toBeUndefined();
    expect(jobs.get(id)?.state).toBe('finished');
    expect(jobs.list().map((job) => [job.title, job.state])).toEqual([
      ['under the lock', 'finished'],
    ]);
    other.exec('COMMIT');
    await jobs.shutdown();
    expect(row()).toBe('finished');
    expect(jobs.list().map((job) => job.state)).toEqual(['finished']);
  });

  it('a job that tries to start another during shutdown is refused, and nothing ends after it', async () => {
    const { jobs, finished } = setup();
    let refused: unknown = null;
    // As search did: when a slice ends, it scheduled the next one.
    const first = jobs.start('search', 'first', async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        jobs.start('search', 'next', async () => undefined);
      } catch (error) {
        refused = error;
      }
      if (ctx.signal.aborted) throw new CancelledError();
    });
    await jobs.shutdown();
    expect(String(refused)).toMatch(/closing/);
    expect(finished.map((job) => [job.id, job.state])).toEqual([[first, 'cancelled']]);
  });

  it('runs a task in a worker and reports throttled progress ending at the last value', async () => {
    const { db, progress, jobs } = setup();
    const pool = new WorkerPool(counting, 1);
    cleanups.push(() => pool.close());
    const jobId = jobs.start('index', 'count', async (ctx) => {
      const result = await pool.run<{ counted: number }>(
        { steps: 30, delayMs: 5 },
        { signal: ctx.signal, onProgress: ctx.progress },
      );
      db.prepare(`INSERT INTO results VALUES (?)`).run(result.counted);
    });
    const job = await jobs.wait(jobId);
    expect(job?.state).toBe('finished');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(30);
    expect(progress.at(-1)?.progress.done).toBe(30);
    expect(db.prepare(`SELECT value FROM results`).all()).toEqual([{ value: 30 }]);
  });

  it('lets a worker go after a task its result says was large, and keeps the others', async () => {
    const pool = new WorkerPool(counting, 1, 2000, (result) => (result as Counted).counted >= 10);
    cleanups.push(() => pool.close());
    const count = (steps: number) => pool.run<Counted>({ steps, delayMs: 0 });
    const large = await count(10);
    const next = await count(1);
    const after = await count(1);
    expect(next.thread).not.toBe(large.thread);
    expect(after.thread).toBe(next.thread);
  });

  it('warms workers before any task, up to its size, and runs the next tasks on them', async () => {
    const pool = new WorkerPool(counting, 2);
    cleanups.push(() => pool.close());
    pool.warm(5);
    expect(pool.workers).toBe(2);
    const counted = await Promise.all(
      [1, 1, 1].map((steps) => pool.run<Counted>({ steps, delayMs: 0 })),
    );
    expect(counted.map((c) => c.counted)).toEqual([1, 1, 1]);
    expect(pool.workers).toBe(2);
    await pool.close();
    pool.warm();
    expect(pool.workers).toBe(0);
  });

  it('cancels cooperatively: the job stops and its partial results are never committed', async () => {
    const { db, jobs, finished } = setup();
    const pool = new WorkerPool(counting, 1);
    cleanups.push(() => pool.close());
    let seen = 0;
    const jobId = jobs.start('compare', 'count', async (ctx) => {
      const result = await pool.run<{ counted: number }>(
        { steps: 1000, delayMs: 5 },
        {
          signal: ctx.signal,
          onProgress: (p) => {
            seen = p.done;
            if (p.done === 10) jobs.cancel(ctx.jobId);
          },
        },
      );
      db.prepare(`INSERT INTO results VALUES (?)`).run(result.counted);
    });
    const job = await jobs.wait(jobId);
    expect(job?.state).toBe('cancelled');
    expect(seen).toBeLessThan(1000);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM results`).get()).toEqual({ n: 0 });
    expect(finished.map((j) => j.state)).toEqual(['cancelled']);
  });

  it('terminates a worker that ignores cancel after the grace period, and the pool keeps working', async () => {
    const pool = new WorkerPool(stuck, 1, 200);
    cleanups.push(() => pool.close());
    const controller = new AbortController();
    // Cancelled once the worker says it is busy: no guess about how long a worker takes to start.
    const running = pool.run(null, {
      signal: controller.signal,
      onMessage: (value) => {
        if (value === 'busy') controller.abort();
      },
    });
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    await expect(pool.run<string>('quick', {})).resolves.toBe('done');
  });

  it('fails every waiting task at once when its worker cannot load, without starting another for each', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const starts = path.join(t.dir, 'starts');
    // Stands in for a damaged install: the worker's code throws before it takes any task.
    const broken: WorkerEntry = {
      script: `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'x');
        throw new Error("Cannot find module 'better-sqlite3'\\nRequire stack:\\n- chunk.js");`,
      eval: true,
    };
    const pool = new WorkerPool(broken, 1);
    cleanups.push(() => pool.close());
    const results = await Promise.allSettled([1, 2, 3].map((steps) => pool.run({ steps })));
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(WorkerStartError);
      expect(reason.message).toMatch(
        /could not start \(Cannot find module 'better-sqlite3'\): the installation may be damaged/,
      );
      expect(reason.message).not.toMatch(/Require stack/);
    }
    expect(fs.readFileSync(starts, 'utf8')).toBe('x');
    expect(pool.workers).toBe(0);
  });

  it('tries a fresh worker on the next task after one could not start', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const failedOnce = path.join(t.dir, 'failed-once');
    const flaky: WorkerEntry = {
      script: `const fs = require('node:fs');
        if (!fs.existsSync(${JSON.stringify(failedOnce)})) {
          fs.writeFileSync(${JSON.stringify(failedOnce)}, '');
          throw new Error('a file was being replaced');
        }
        ${counting.script}`,
      eval: true,
    };
    const pool = new WorkerPool(flaky, 1);
    cleanups.push(() => pool.close());
    await expect(pool.run({ steps: 1, delayMs: 0 })).rejects.toBeInstanceOf(WorkerStartError);
    await expect(pool.run<Counted>({ steps: 2, delayMs: 0 })).resolves.toMatchObject({
      counted: 2,
    });
  });

  it('marks jobs left running by a crash as interrupted on the next start', () => {
    const { db } = setup();
    db.prepare(
      `INSERT INTO jobs (id, kind, title, state, created_at) VALUES ('j1', 'index', 't', 'running', '2026-01-01')`,
    ).run();
    const again = new JobManager(db, {
      started: () => undefined,
      progress: () => undefined,
      finished: () => undefined,
    });
    expect(again.get('j1')?.state).toBe('interrupted');
  });
});
