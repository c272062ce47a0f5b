import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import { PairwiseService } from '../../electron/core/service';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { callOk } from '../fixtures/service';
import { tempDir } from '../fixtures/tmp';

/**
 * A service that is closed lets go of everything it holds: hosts and tests open many in one
 * process, and whatever one leaves open stays until the process ends.
 */

const linux = fs.existsSync('/proc/self/fd');

/** The files this process holds open inside `dir` (Linux lists them under /proc/self/fd). */
function openFilesIn(dir: string): string[] {
  const held: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(path.join('/proc/self/fd', fd));
      if (target.startsWith(dir + path.sep)) held.push(target);
    } catch {
      // The descriptor readdir itself used, closed by now.
    }
  }
  return held;
}

function library(dir: string): string {
  const root = path.join(dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: examples(20) });
  writeMechlensRun(root, {
    id: 'steer',
    name: 'steer',
    experiment: { id: 'exp-close', role: 'intervention' },
    examples: examples(20, (i) => ({ refused: i % 3 === 0, score: (i % 5) + 1 })),
  });
  return root;
}

function open(dir: string, watch: boolean): PairwiseService {
  return new PairwiseService({
    dbPath: path.join(dir, 'pairwise.db'),
    host: 'cli',
    version: '0.0.0-test',
    watch,
    // As the app: the texts archive runs in the background too.
    archive: watch,
    indexWorkers: 1,
  });
}

/** Indexes, searches and compares, so every part of the service has something open. */
async function use(service: PairwiseService, dir: string): Promise<void> {
  const root = library(dir);
  const { jobId } = await callOk<{ jobId: string }>(service, 'library:addFolder', { path: root });
  await service.jobs.wait(jobId);
  await service.search.idle();
  await service.compare.run({ experimentId: 'exp-close', resamples: 100 });
}

describe('closing a service', () => {
  it.skipIf(!linux)('lets go of every file in its data folder, its log included', async () => {
    const dirs = [tempDir(), tempDir(), tempDir()];
    try {
      for (const [i, t] of dirs.entries()) {
        const service = open(t.dir, i > 0);
        await use(service, t.dir);
        expect(openFilesIn(t.dir).length).toBeGreaterThan(0);
        await service.close();
        expect(openFilesIn(t.dir)).toEqual([]);
      }
    } finally {
      for (const t of dirs) t.cleanup();
    }
  });

  it.skipIf(!linux)('that could not open its library leaves no file open either', async () => {
    const t = tempDir();
    try {
      const file = path.join(t.dir, 'pairwise.db');
      const other = new Database(file);
      other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
      other.close();
      expect(() => open(t.dir, false)).toThrow();
      // The failed open writes its last log entry and closes the file in the background.
      const log = path.join(t.dir, 'pairwise-logs', 'pairwise.log');
      const written = () =>
        fs.existsSync(log) && /could not be opened/.test(fs.readFileSync(log, 'utf8'));
      for (let i = 0; i < 200 && !(written() && openFilesIn(t.dir).length === 0); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(written()).toBe(true);
      expect(openFilesIn(t.dir)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('still writes its last log entry', async () => {
    const t = tempDir();
    try {
      const service = open(t.dir, false);
      await service.close();
      const log = fs.readFileSync(path.join(t.dir, 'pairwise-logs', 'pairwise.log'), 'utf8');
      expect(log).toMatch(/"msg":"library closing"/);
    } finally {
      t.cleanup();
    }
  });

  it('leaves nothing that keeps the process alive: no timer, worker or watcher', async () => {
    const t = tempDir();
    try {
      const threads = () => (linux ? fs.readdirSync('/proc/self/task').length : 0);
      // Idle workers are unref'd, so only the thread count shows one left running.
      const threadsBefore = threads();
      const before = process.getActiveResourcesInfo();
      const service = open(t.dir, true);
      await use(service, t.dir);
      service.watchFolder('s3://bucket/runs', true);
      // A change the watcher is still settling when the service closes.
      fs.writeFileSync(path.join(t.dir, 'lib', 'notes.txt'), 'x');
      await service.close();
      const after = process.getActiveResourcesInfo().filter((r) => !before.includes(r));
      expect(after.filter((r) => !/Req/.test(r))).toEqual([]);
      expect(threads()).toBe(threadsBefore);
    } finally {
      t.cleanup();
    }
  });

  it('refuses a request that arrives while it closes, and leaves nothing of it running', async () => {
    const t = tempDir();
    try {
      const service = open(t.dir, true);
      const root = library(t.dir);
      await service.index([root]);
      const closing = service.close();
      const answers = [
        await dispatch(service, 'library:addFolder', { path: root }),
        await dispatch(service, 'compare:start', { experimentId: 'exp-close', resamples: 100 }),
      ];
      await closing;
      for (const answer of answers)
        expect(answer).toMatchObject({ ok: false, error: { message: /closing/ } });
      if (linux) expect(openFilesIn(t.dir)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('starts no search fill once it is closing, even with runs left unsearchable', async () => {
    const t = tempDir();
    try {
      const service = open(t.dir, false);
      await service.index([library(t.dir)]);
      await service.search.idle();
      service.db.exec('UPDATE run_search SET ready = 0');
      const closing = service.close();
      // What a fill job that ends during the close does: ask for the next one.
      expect(() => service.search.schedule()).not.toThrow();
      await closing;
    } finally {
      t.cleanup();
    }
  });

  it('stops watching before it waits for its jobs: a change settling meanwhile starts no pass', async () => {
    const t = tempDir();
    try {
      const service = open(t.dir, true);
      const root = library(t.dir);
      const { jobId } = await callOk<{ jobId: string }>(service, 'library:addFolder', {
        path: root,
      });
      await service.jobs.wait(jobId);
      service.watchFolder('s3://bucket/runs', true);
      const parts = service as unknown as {
        watcher: { watchers: Map<string, { timer: NodeJS.Timeout | null }> };
        poller: { timers: Map<string, NodeJS.Timeout> };
      };
      fs.writeFileSync(path.join(root, 'notes.txt'), 'x');
      for (let i = 0; i < 300 && !parts.watcher.watchers.get(root)?.timer; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(parts.watcher.watchers.get(root)?.timer).toBeTruthy();
      const closing = service.close();
      expect(parts.watcher.watchers.size).toBe(0);
      expect(parts.poller.timers.size).toBe(0);
      await closing;
    } finally {
      t.cleanup();
    }
  });

  it('watches no folder or bucket added while it closes', async () => {
    const t = tempDir();
    try {
      const service = open(t.dir, true);
      const root = library(t.dir);
      const closing = service.close();
      expect(await dispatch(service, 'library:addFolder', { path: root })).toMatchObject({
        ok: false,
      });
      service.watchFolder('s3://bucket/runs', true);
      await closing;
      const parts = service as unknown as {
        watcher: { watchers: Map<string, unknown> };
        poller: { timers: Map<string, unknown> };
      };
      expect(parts.watcher.watchers.size).toBe(0);
      expect(parts.poller.timers.size).toBe(0);
    } finally {
      t.cleanup();
    }
  });
});
