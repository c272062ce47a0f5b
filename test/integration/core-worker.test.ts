import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { sourceWorkerEntry } from '../../electron/core/jobs/worker-path';
import { tempDir } from '../fixtures/tmp';
import { cleanupsAfterEach } from '../fixtures/cleanups';

/**
 * The desktop app's core worker, driven the way electron/main/core-host.ts drives it (main's
 * safeStorage side played by this test), so the desktop bridge is tested without Electron.
 */
const cleanups = cleanupsAfterEach();

function startCore() {
  const t = tempDir();
  const entry = sourceWorkerEntry(path.resolve(__dirname, '../../electron/workers/core.worker.ts'));
  const worker = new Worker(entry.script, {
    eval: entry.eval,
    workerData: {
      options: { dbPath: path.join(t.dir, 'p.db'), host: 'desktop', version: 'test', watch: false },
      workerDir: path.resolve(__dirname, '../../out/main-not-built'),
    },
  });
  const secrets = new Map<string, string>();
  const responses = new Map<number, (value: unknown) => void>();
  const events: string[] = [];
  worker.on(
    'message',
    (m: { type: string; id: number; name: string; value?: string | null; result?: unknown }) => {
      if (m.type === 'response') responses.get(m.id)?.(m.result);
      else if (m.type === 'event') events.push(m.name);
      else if (m.type === 'secret:get')
        worker.postMessage({ type: 'secret:reply', id: m.id, value: secrets.get(m.name) ?? null });
      else if (m.type === 'secret:storage')
        worker.postMessage({ type: 'secret:reply', id: m.id, value: 'keychain' });
      else if (m.type === 'secret:set') {
        if (m.value) secrets.set(m.name, m.value);
        else secrets.delete(m.name);
        worker.postMessage({ type: 'secret:reply', id: m.id, value: null });
      }
    },
  );
  let next = 1;
  const request = (name: string, input: unknown) =>
    new Promise<{ ok: boolean; value?: Record<string, unknown>; error?: { code: string } }>(
      (resolve) => {
        const id = next++;
        responses.set(id, resolve as (value: unknown) => void);
        worker.postMessage({ type: 'request', id, name, input });
      },
    );
  cleanups.push(t.cleanup, () => worker.terminate());
  return { request, secrets, events, dir: t.dir };
}

describe('desktop core worker', () => {
  it('answers contract requests, validates them, and keeps the sync key with main', async () => {
    const core = startCore();
    const info = await core.request('app:info', {});
    expect(info).toMatchObject({ ok: true, value: { host: 'desktop' } });
    expect(await core.request('jobs:cancel', { jobId: 7 })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    const configured = await core.request('sync:configure', {
      url: 'https://sync.example.org',
      apiKey: 'desk-key-123',
    });
    expect(configured).toMatchObject({
      ok: true,
      value: { configured: true, keySource: 'store', keyStorage: 'keychain' },
    });
    expect(core.secrets.size).toBe(1);
    expect([...core.secrets.values()]).toEqual(['desk-key-123']);
  }, 30_000);
});
