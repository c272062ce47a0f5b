import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { whenWritable } from '../../electron/core/ingest/index-unit';
import { CancelledError } from '../../electron/core/jobs/protocol';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';
import { storedExampleCount, storedExamples } from '../fixtures/stored-examples';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** Another process holding the write lock for `ms`; resolves once it holds it. */
function holdWriteLock(dbPath: string, ms: number): Promise<{ released: Promise<void> }> {
  const script = `
    const db = new (require('better-sqlite3'))(process.argv[1]);
    db.pragma('busy_timeout = 10000');
    db.exec('BEGIN IMMEDIATE');
    console.log('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, dbPath, String(ms)], {
    cwd: path.resolve(__dirname, '../..'),
  });
  const released = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => resolve({ released }));
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
}

describe('index workers writing through their own connections', () => {
  it('wait for a busy database instead of failing, until cancelled', async () => {
    let attempts = 0;
    const value = await whenWritable(() => {
      if (++attempts < 3) throw busy();
      return 'written';
    }, new AbortController().signal);
    expect({ value, attempts }).toEqual({ value: 'written', attempts: 3 });

    const controller = new AbortController();
    await expect(
      whenWritable(() => {
        setImmediate(() => controller.abort());
        throw busy();
      }, controller.signal),
    ).rejects.toThrow(CancelledError);
    await expect(
      whenWritable(() => {
        throw new Error('disk I/O error');
      }, new AbortController().signal),
    ).rejects.toThrow('disk I/O error');
  });

  it('index every file while another connection holds the write lock for a while', async () => {
    harness = makeService();
    const root = path.join(harness.dir, 'library');
    for (let i = 0; i < 12; i++)
      writeMechlensRun(root, { id: `run-${i}`, name: `c${i}`, examples: examples(200) });
    const indexing = harness.service.index([root]);
    const lock = await holdWriteLock(path.join(harness.dir, 'pairwise.db'), 2500);
    const stats = await indexing;
    await lock.released;
    expect(stats.sources).toEqual({ scanned: 12, imported: 12, unchanged: 0, failed: 0 });
    expect(stats.examples).toBe(12 * 200);
    const db = harness.service.db;
    expect(storedExampleCount(db)).toBe(2400);
    const status = db.prepare(`SELECT DISTINCT status FROM sources`).all();
    expect(status).toEqual([{ status: 'imported' }]);
  }, 60_000);

  it('cancel mid-pass: every stored run is whole, the rest stay unindexed, and a rescan finishes', async () => {
    harness = makeService();
    const { service } = harness;
    const root = path.join(harness.dir, 'library');
    for (let i = 0; i < 60; i++)
      writeMechlensRun(root, { id: `run-${i}`, name: `c${i}`, examples: examples(300) });
    const jobId = service.startIndex([root], 'Indexing');
    const off = service.events.on('job:progress', ({ progress }) => {
      if (progress.phase === 'indexing' && progress.done > 0) service.jobs.cancel(jobId);
    });
    const job = await service.jobs.wait(jobId);
    off();
    expect(job?.state).toBe('cancelled');
    const runs = (
      service.db.prepare(`SELECT rowid, example_count AS declared FROM runs`).all() as {
        rowid: number;
        declared: number;
      }[]
    ).map((r) => ({ ...r, stored: storedExamples(service.db, r.rowid).length }));
    expect(runs.length).toBeLessThan(60);
    for (const run of runs) expect(run.stored).toBe(run.declared);
    const stats = await service.index([root]);
    expect(stats.sources.failed).toBe(0);
    expect(stats.sources.imported + stats.sources.unchanged).toBe(60);
    expect(storedExampleCount(service.db)).toBe(18000);
  }, 60_000);
});
