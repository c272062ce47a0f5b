import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, send, type SendRequest } from '../../electron/core/sync/client';
import { MemorySecretStore, normalizeEndpoint } from '../../electron/core/sync/settings';
import { startHostileServer, type HostileServer } from '../fixtures/hostile-server';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

let server: HostileServer | null = null;
let harness: Harness | null = null;
beforeEach(() => {
  delete process.env.MECHLENS_API_URL;
  delete process.env.MECHLENS_API_KEY;
});
afterEach(async () => {
  await server?.close();
  server = null;
  await harness?.close();
  harness = null;
});

function request(url: string, timeoutMs: number): SendRequest {
  return {
    url: `${url}/api/v1/runs`,
    key: 'ml_key',
    idempotencyKey: 'run-1',
    body: '{}',
    timeoutMs,
    signal: new AbortController().signal,
  };
}

/** Collects garbage while a request is under way, as a long sync pass would. */
async function whileCollecting<T>(work: Promise<T>): Promise<T> {
  let done = false;
  const settled = work.finally(() => (done = true));
  while (!done) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return settled;
}

describe('sync against a hostile server', () => {
  it('gives up on a server that never answers, even after garbage collections', async () => {
    server = await startHostileServer('hang');
    const outcome = await whileCollecting(send(request(server.url, 300)));
    expect(outcome).toMatchObject({ kind: 'retry', message: 'No complete answer within 0 s.' });
  });

  it('gives up on a server that trickles its answer a byte at a time', async () => {
    server = await startHostileServer('trickle', { trickleEveryMs: 20 });
    const outcome = await whileCollecting(send(request(server.url, 400)));
    expect(outcome.kind).toBe('retry');
    expect(server.written()).toBeGreaterThan(0);
  });

  it('reads no more than its limit of an error body that never ends', async () => {
    server = await startHostileServer('huge');
    const outcome = await send(request(server.url, 60_000));
    expect(outcome).toMatchObject({ kind: 'retry' });
    if (outcome.kind !== 'retry') return;
    expect(outcome.message).toMatch(/^The server answered 500: x{100}/);
    expect(outcome.message.length).toBeLessThan(2100);
    // The client stopped reading: the server could write little past the limit and its buffers.
    expect(server.written()).toBeLessThan(MAX_ANSWER_BYTES + 16 * 1024 * 1024);
  });
});

describe('a sync pass against a server that never answers', () => {
  it('ends once its retry budget is spent, even when the backoff is shorter than the timeout', async () => {
    server = await startHostileServer('hang');
    process.env.MECHLENS_API_URL = server.url;
    process.env.MECHLENS_API_KEY = 'ml_key';
    harness = makeService({
      sync: { timeoutMs: 100, baseDelayMs: 1, maxDelayMs: 5, maxWaitMs: 500 },
    });
    const lib = path.join(harness.dir, 'lib');
    writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: examples(3) });
    await harness.service.index([lib]);
    const result = await harness.service.sync.pass(new AbortController().signal);
    expect(result).toMatchObject({ synced: 0, waiting: 1 });
  });
});

describe('the sync key stays with its server', () => {
  it('refuses http:// to another host, and accepts it for this machine', () => {
    expect(() => normalizeEndpoint('http://cloud.example.org')).toThrow(/https:\/\//);
    expect(() => normalizeEndpoint('http://10.0.0.5:8000')).toThrow(/unencrypted/);
    expect(normalizeEndpoint('https://cloud.example.org/')).toBe('https://cloud.example.org');
    for (const local of ['http://localhost:8000', 'http://127.0.0.1:9', 'http://[::1]:80'])
      expect(normalizeEndpoint(local)).toBe(local.replace(/:80$/, ''));
  });

  it('forgets a stored key when the address moves to another server without a new key', async () => {
    const secrets = new MemorySecretStore();
    harness = makeService({ secrets });
    const sync = harness.service.sync;
    await sync.configure({ url: 'https://cloud.example.org', apiKey: 'ml_key' });
    expect((await sync.configure({ url: 'https://cloud.example.org/' })).keySource).toBe('store');
    const moved = await sync.configure({ url: 'https://elsewhere.example.net' });
    expect(moved.keySource).toBeNull();
    expect(moved.configured).toBe(false);
    expect(await secrets.get('mechlens.apiKey')).toBeNull();
    const given = await sync.configure({ url: 'https://elsewhere.example.net', apiKey: 'ml_new' });
    expect(given.configured).toBe(true);
  });
});
