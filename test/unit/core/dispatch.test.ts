import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/core/dispatch';
import { examples, writeMechlensRun } from '../../fixtures/formats';
import { makeService, type Harness } from '../../fixtures/service';
import { tempDir } from '../../fixtures/tmp';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe('dispatch (the desktop bridge and the HTTP host both use it)', () => {
  it('rejects a malformed request with a clear error before the service sees it', async () => {
    harness = makeService();
    const result = await dispatch(harness.service, 'library:addFolder', { path: '' });
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    if (!result.ok) expect(result.error.message).toMatch(/library:addFolder: path/);
    const extra = await dispatch(harness.service, 'app:info', { sneaky: true });
    expect(extra.ok).toBe(false);
  });

  it('maps a missing folder to not_found', async () => {
    harness = makeService();
    const result = await dispatch(harness.service, 'library:addFolder', {
      path: '/definitely/not/here',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('says a library kept busy by another writer in words, not as "database is locked"', async () => {
    harness = makeService();
    const { service } = harness;
    service.db.pragma('busy_timeout = 50');
    const folder = tempDir();
    const holder = new Database(service.db.name);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const result = await dispatch(service, 'library:addFolder', { path: folder.dir });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.message).toMatch(/busy with another write/);
        expect(result.error.message).toContain(service.db.name);
      }
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      folder.cleanup();
    }
  });

  it('announces a job when it starts, so a client can show its progress before it ends', async () => {
    harness = makeService();
    const { service } = harness;
    const folder = tempDir();
    try {
      writeMechlensRun(folder.dir, { id: 'r1', examples: examples(3) });
      const events: string[] = [];
      let listedWhileRunning: string[] = [];
      const off = service.events.onAny((name) => {
        events.push(name);
        if (name === 'jobs:changed' && !events.includes('job:finished'))
          listedWhileRunning = service.jobs.list().map((j) => j.state);
      });
      const result = await dispatch(service, 'library:addFolder', { path: folder.dir });
      if (!result.ok) throw new Error(result.error.message);
      await service.jobs.wait((result.value as { jobId: string }).jobId);
      off();
      expect(events.indexOf('jobs:changed')).toBeLessThan(events.indexOf('job:finished'));
      expect(listedWhileRunning).toContain('running');
    } finally {
      folder.cleanup();
    }
  });
});
