import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDbError } from '../../electron/core/db/errors';
import { openDatabase } from '../../electron/core/db/open';
import { indexUnit, type IndexTask } from '../../electron/core/ingest/index-unit';
import { indexPaths } from '../../electron/core/ingest/indexer';
import { IndexStore } from '../../electron/core/ingest/store';
import type { WorkerPool } from '../../electron/core/jobs/pool';
import { PairwiseService } from '../../electron/core/service';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';
import { cleanupsAfterEach } from '../fixtures/cleanups';
import { storedExampleCount } from '../fixtures/stored-examples';

const cleanups = cleanupsAfterEach();

describe('storage failures', () => {
  it('a database in a read-only place gives a message that says what to do', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    // A path under a regular file can never be created, even by root.
    const blocker = path.join(t.dir, 'not-a-folder');
    fs.writeFileSync(blocker, 'x');
    expect(() => openDatabase(path.join(blocker, 'pairwise.db'))).toThrow(
      /cannot open or create its database|read-only/,
    );
  });

  it('a read-only database file is refused with a clear message', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'p.db');
    openDatabase(file).close();
    // SQLite's own read-only mode stands in for a read-only mount, which root cannot create here.
    const db = openDatabase(file, { readonly: true });
    let message: string | null = null;
    try {
      db.prepare(`INSERT INTO folders (path, watched, added_at) VALUES ('x', 1, 'now')`).run();
    } catch (error) {
      message = describeDbError(error, file);
    } finally {
      db.close();
    }
    expect(message).toMatch(/cannot write to .*read-only/);
  });

  it('a write that waits out the busy timeout says who may hold the lock and that nothing changed', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'pairwise.db');
    const holder = openDatabase(file);
    const waiter = openDatabase(file);
    waiter.pragma('busy_timeout = 50');
    holder.exec('BEGIN IMMEDIATE');
    let message: string | null = null;
    try {
      waiter.prepare(`INSERT INTO folders (path, watched, added_at) VALUES ('/x', 1, 'now')`).run();
    } catch (error) {
      message = describeDbError(error, file);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      waiter.close();
    }
    expect(message).toMatch(/busy with another write/);
    expect(message).toMatch(/large file being indexed/);
    expect(message).toMatch(/Nothing was changed/);
  });

  it('a full disk fails the index job with a clear message and leaves no partial run', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const service = new PairwiseService({
      dbPath: path.join(t.dir, 'p.db'),
      host: 'cli',
      version: 'test',
      indexWorkers: 1,
    });
    cleanups.push(() => service.close());
    const root = path.join(t.dir, 'lib');
    writeMechlensRun(root, { id: 'small', name: 'reference', examples: examples(2) });
    writeMechlensRun(root, {
      id: 'big',
      name: 'steer',
      // Large fields, which are stored whatever the texts (those stay in the file).
      examples: examples(400).map((e) => ({ ...e, fields: { note: e.output.repeat(400) } })),
    });
    await service.index([path.join(root, '.mechlens/runs/small.json')]);
    const db = service.db;
    const pages = db.pragma('page_count', { simple: true }) as number;
    // A ceiling on the database's size is how SQLite reports SQLITE_FULL without filling a disk.
    // It holds for one connection only, so the units are stored through this one, in-thread.
    db.pragma(`max_page_count = ${pages + 20}`);
    const store = new IndexStore(db);
    const pool = {
      run: (task: IndexTask, options: { signal: AbortSignal }) =>
        indexUnit(task, store, options.signal),
    } as unknown as WorkerPool;
    const signal = new AbortController().signal;
    await expect(indexPaths({ db, pool, paths: [root], signal })).rejects.toThrow(
      /disk holding .* is full/,
    );
    const runs = db.prepare(`SELECT id FROM runs ORDER BY id`).all() as { id: string }[];
    expect(runs.map((r) => r.id)).toEqual(['small']);
    expect(storedExampleCount(db)).toBe(2);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
