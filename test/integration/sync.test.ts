import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/core/dispatch';
import { parseRetryAfter } from '../../electron/core/sync/client';
import { defaultSyncOptions, retryDelay } from '../../electron/core/sync/drain';
import type { OpenedFinding, OutboxItem, SyncStatus } from '../../shared/findings';
import { startCli } from '../fixtures/cli';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { cleanupsAfterEach } from '../fixtures/cleanups';
import { syncLibrary, type SyncLibrary } from '../fixtures/sync-library';

const KEY = 'ml_test_4f9c2e7a1b8d6c3e5f0a9b8c7d6e5f4a';

const cleanups = cleanupsAfterEach();
beforeEach(() => {
  delete process.env.MECHLENS_API_URL;
  delete process.env.MECHLENS_API_KEY;
});

type Setup = SyncLibrary;

/** Three runs and one finding (revision 1), so the outbox holds a finding before the runs. */
function setup(sync: Partial<typeof defaultSyncOptions> = {}): Promise<Setup> {
  const candidate = (id: string, name: string, role: string) => ({
    id,
    name,
    experiment: { id: 'exp-test', role },
    examples: examples(12, (i) => ({ refused: i % 3 === 0, score: i % 4 })),
  });
  return syncLibrary({
    apiKey: KEY,
    runs: [
      { id: 'ref', name: 'reference', examples: examples(12) },
      candidate('steer', 'steer', 'intervention'),
      candidate('ctrl', 'control', 'control'),
    ],
    sync: { baseDelayMs: 20, maxDelayMs: 200, timeoutMs: 1_000, maxWaitMs: 20_000, ...sync },
    cleanups,
  });
}

async function syncOnce(s: Setup): Promise<{ state: string; error: string | null }> {
  const { jobId } = await s.call<{ jobId: string }>('sync:run', {});
  const job = await s.service.jobs.wait(jobId);
  return { state: job!.state, error: job!.error };
}

function outbox(s: Setup): OutboxItem[] {
  return s.service.db
    .prepare(
      `SELECT id, kind, item_id AS itemId, idempotency_key AS idempotencyKey, state, attempts,
                     next_attempt_at AS nextAttemptAt, last_error AS lastError, remote_url AS remoteUrl
              FROM outbox ORDER BY id`,
    )
    .all() as OutboxItem[];
}

/**
 * The CLI from source in a child process, asynchronously: the sync server lives in this
 * process, so a spawnSync would leave it unable to answer.
 */
function keysOf(s: Setup): string[] {
  return outbox(s).map((o) => o.idempotencyKey);
}

describe('sync with a MechLens-compatible server', () => {
  it('sends every run and finding revision once, in outbox order, with the documented headers', async () => {
    const s = await setup();
    const dry = await s.call<{ jobId: null; plan: { newRuns: string[]; queued: OutboxItem[] } }>(
      'sync:run',
      { dryRun: true },
    );
    expect(dry.jobId).toBeNull();
    expect(dry.plan.newRuns.sort()).toEqual(['ctrl', 'ref', 'steer']);
    expect(dry.plan.queued.map((q) => q.idempotencyKey)).toEqual([`${s.findingId}:1`]);
    expect((await dispatch(s.service, 'sync:run', {})).ok).toBe(false);
    expect(s.server.received).toHaveLength(0);

    await s.call('sync:configure', { url: `${s.server.url}/`, apiKey: KEY });
    expect(await syncOnce(s)).toEqual({ state: 'finished', error: null });

    const keys = keysOf(s);
    expect(keys[0]).toBe(`${s.findingId}:1`);
    expect(s.server.received.map((r) => r.idempotencyKey)).toEqual(keys);
    for (const r of s.server.received) {
      expect(r.method).toBe('POST');
      expect(r.authorization).toBe(`Bearer ${KEY}`);
      expect(r.contentType).toBe('application/json');
      expect(r.path).toBe(r.idempotencyKey!.includes(':') ? '/api/v1/findings' : '/api/v1/runs');
    }
    const onDisk = JSON.parse(
      fs.readFileSync(path.join(s.dir, 'lib/.mechlens/runs/steer.json'), 'utf8'),
    ) as unknown;
    expect(s.server.stored.get('steer')!.body).toEqual(onDisk);
    const findingBody = s.server.stored.get(`${s.findingId}:1`)!.body as {
      revision: number;
      body: { snapshot: { reportKey: string } };
    };
    expect(findingBody.revision).toBe(1);
    expect(findingBody.body.snapshot.reportKey).toMatch(/^[0-9a-f]{64}$/);

    const status = await s.call<SyncStatus>('sync:status', {});
    expect(status).toMatchObject({
      configured: true,
      endpoint: s.server.url,
      endpointSource: 'settings',
      keySource: 'store',
    });
    expect(status.counts).toEqual({ pending: 0, synced: 4, rejected: 0, retrying: 0, stopped: 0 });
    expect(status.items.every((i) => i.remoteUrl?.startsWith(s.server.url))).toBe(true);
    expect(JSON.stringify(status)).not.toContain(KEY);

    // Nothing new: a second sync sends nothing. A saved revision is queued and sent.
    expect(await syncOnce(s)).toEqual({ state: 'finished', error: null });
    expect(s.server.received).toHaveLength(4);
    const view = await s.call<OpenedFinding>('findings:get', { findingId: s.findingId });
    const { snapshot: _snapshot, ...body } = view.body;
    await s.call('findings:save', {
      findingId: s.findingId,
      baseRevision: 1,
      body: { ...body, conclusion: 'Mine.' },
    });
    await syncOnce(s);
    expect(s.server.received.map((r) => r.idempotencyKey).slice(4)).toEqual([`${s.findingId}:2`]);

    // A run file changed after it was synced is reported, and not sent again under its id.
    const file = path.join(s.dir, 'lib/.mechlens/runs/ctrl.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Answer number 1.', 'Changed.'));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    await s.service.index([path.join(s.dir, 'lib')]);
    const changed = await s.call<SyncStatus>('sync:status', {});
    expect(changed.changedSinceSync.map((c) => c.runId)).toEqual(['ctrl']);
    await syncOnce(s);
    expect(s.server.received).toHaveLength(5);
  });

  it('queues only the chosen experiments when asked to', async () => {
    const s = await setup();
    await s.service.index([
      writeMechlensRun(path.join(s.dir, 'other'), {
        id: 'other-run',
        name: 'reference',
        experiment: { id: 'exp-other' },
      }),
    ]);
    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    const dry = await s.call<{ plan: { newRuns: string[] } }>('sync:run', {
      dryRun: true,
      experimentIds: ['exp-other'],
    });
    expect(dry.plan.newRuns).toEqual(['other-run']);
    const { jobId } = await s.call<{ jobId: string }>('sync:run', {
      experimentIds: ['exp-test'],
    });
    expect((await s.service.jobs.wait(jobId))?.state).toBe('finished');
    const runs = outbox(s)
      .filter((o) => o.kind === 'run')
      .map((o) => o.itemId)
      .sort();
    expect(runs).toEqual(['ctrl', 'ref', 'steer']);
  });

  it('retries through 5xx, dropped connections and timeouts without ever storing twice', async () => {
    const s = await setup({ timeoutMs: 300 });
    s.server.reply((r) => {
      if (r.attempt === 1) return { status: 503, body: { detail: 'busy' } };
      if (r.attempt === 2)
        return r.idempotencyKey === 'ref' ? { hang: true, store: true } : { close: true };
      return undefined;
    });
    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    expect((await syncOnce(s)).state).toBe('finished');

    const keys = keysOf(s);
    expect(outbox(s).every((o) => o.state === 'synced' && o.attempts === 3)).toBe(true);
    expect(s.server.stored.size).toBe(keys.length);
    for (const key of keys)
      expect(
        s.server.received.filter((r) => r.idempotencyKey === key).map((r) => r.attempt),
      ).toEqual([1, 2, 3]);
    // Strict order: no row is sent before the one ahead of it is done.
    const firstSeen = keys.map((k) => s.server.received.findIndex((r) => r.idempotencyKey === k));
    const lastSeen = keys.map((k) =>
      s.server.received.findLastIndex((r) => r.idempotencyKey === k),
    );
    for (let i = 1; i < keys.length; i++) expect(firstSeen[i]).toBeGreaterThan(lastSeen[i - 1]!);
  });

  it('stops everything on 401 and resumes once a new key is given', async () => {
    const s = await setup();
    await s.call('sync:configure', { url: s.server.url, apiKey: 'ml_revoked' });
    const run = await syncOnce(s);
    expect(run.state).toBe('failed');
    expect(run.error).toMatch(/401.*ask for a new key/);
    expect(s.server.received).toHaveLength(1);
    const rows = outbox(s);
    expect(rows.map((r) => r.state)).toEqual(['stopped', 'stopped', 'stopped', 'stopped']);
    expect(rows.every((r) => r.nextAttemptAt === null)).toBe(true);

    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    expect(outbox(s).every((r) => r.state === 'pending')).toBe(true);
    expect((await syncOnce(s)).state).toBe('finished');
    expect(outbox(s).every((r) => r.state === 'synced')).toBe(true);
  });

  it('rejects one item on 422 with the server detail, and the rest sync', async () => {
    const s = await setup();
    s.server.reply((r) =>
      r.idempotencyKey === 'steer'
        ? {
            status: 422,
            body: { detail: [{ loc: ['body', 'metrics'], msg: 'refusal_rate must be finite' }] },
          }
        : undefined,
    );
    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    expect((await syncOnce(s)).state).toBe('finished');
    const rows = outbox(s);
    const steer = rows.find((r) => r.itemId === 'steer')!;
    expect(steer).toMatchObject({ state: 'rejected', attempts: 1 });
    expect(steer.lastError).toBe('422: body.metrics: refusal_rate must be finite');
    expect(rows.filter((r) => r !== steer).every((r) => r.state === 'synced')).toBe(true);
    expect(s.server.received.map((r) => r.idempotencyKey)).toEqual(keysOf(s));
    // Rejected is final: the next sync does not send it again.
    await syncOnce(s);
    expect(s.server.received.filter((r) => r.idempotencyKey === 'steer')).toHaveLength(1);
  });

  it('waits for Retry-After on 429 before sending that row (or any after it) again', async () => {
    const s = await setup();
    s.server.reply((r) =>
      r.attempt === 1 && r.idempotencyKey === `${s.findingId}:1`
        ? { status: 429, headers: { 'Retry-After': '1' }, body: { detail: 'slow down' } }
        : undefined,
    );
    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    const seen: OutboxItem[] = [];
    const result = await s.service.sync.pass(new AbortController().signal, (item) =>
      seen.push(item),
    );
    expect(result).toMatchObject({ synced: 4, rejected: 0, stopped: null, waiting: 0 });
    const [limited, again] = s.server.received;
    expect(limited!.idempotencyKey).toBe(again!.idempotencyKey);
    expect(seen[0]).toMatchObject({
      state: 'retrying',
      attempts: 1,
      lastError: expect.stringMatching(/429/),
    });
    const nextAt = Date.parse(seen[0]!.nextAttemptAt!);
    expect(nextAt - limited!.at).toBeGreaterThanOrEqual(1000 - 50);
    expect(again!.at).toBeGreaterThanOrEqual(nextAt - 5);
    expect(s.server.received.map((r) => r.attempt)).toEqual([1, 2, 1, 1, 1]);
  });

  it('ends a pass rather than wait beyond its budget, and "retry now" sends at once', async () => {
    const s = await setup({ maxWaitMs: 200 });
    s.server.reply((r) =>
      r.attempt === 1 && r.idempotencyKey === `${s.findingId}:1`
        ? { status: 503, headers: { 'Retry-After': '3600' } }
        : undefined,
    );
    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    expect((await syncOnce(s)).state).toBe('finished');
    const [head, ...rest] = outbox(s);
    expect(head).toMatchObject({ state: 'retrying', attempts: 1 });
    expect(Date.parse(head!.nextAttemptAt!) - Date.now()).toBeGreaterThan(3_000_000);
    expect(rest.every((r) => r.state === 'pending' && r.attempts === 0)).toBe(true);
    expect(s.server.received).toHaveLength(1);

    const { retried, jobId } = await s.call<{ retried: number; jobId: string }>(
      'sync:retryNow',
      {},
    );
    expect(retried).toBe(1);
    await s.service.jobs.wait(jobId);
    expect(outbox(s).every((r) => r.state === 'synced')).toBe(true);
    expect((await dispatch(s.service, 'sync:retryNow', { id: 999 })).ok).toBe(false);
  });

  it('re-sends under the same key after a crash between send and acknowledgement', async () => {
    const s = await setup();
    await s.service.close();
    const env = { MECHLENS_API_URL: s.server.url, MECHLENS_API_KEY: KEY };
    const first = `${s.findingId}:1`;
    s.server.reply((r) =>
      r.idempotencyKey === first && r.attempt === 1 ? { hang: true, store: true } : undefined,
    );
    const killed = startCli(['sync', '--db', s.dbPath], env);
    await s.server.waitForRequests(1);
    killed.child.kill('SIGKILL');
    const crash = await killed.done;
    expect(crash.signal).toBe('SIGKILL');
    expect(s.server.stored.has(first)).toBe(true);

    s.server.reply(() => undefined);
    const again = await startCli(['sync', '--db', s.dbPath], env).done;
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/0 run\(s\) queued; 4 synced, 0 rejected, 0 still waiting\./);
    const sent = s.server.received.filter((r) => r.idempotencyKey === first);
    expect(sent.map((r) => r.attempt)).toEqual([1, 2]);
    expect(s.server.stored.size).toBe(4);
    for (const text of [crash.stdout, crash.stderr, again.stdout, again.stderr])
      expect(text).not.toContain(KEY);
    const dry = await startCli(['sync', '--db', s.dbPath, '--dry-run']).done;
    expect(dry.stdout).toMatch(/Would queue 0 run\(s\) and send 0 item\(s\)/);
  }, 60_000);

  it('sends a run as indexed when its file changed after indexing', async () => {
    const s = await setup();
    const file = path.join(s.dir, 'lib/.mechlens/runs/ref.json');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('Answer number 1.', 'Edited later.'),
    );
    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    await syncOnce(s);
    const sent = s.server.stored.get('ref')!.body as {
      id: string;
      name: string;
      model: unknown;
      examples: { id: string; output: string }[];
      source: unknown;
    };
    expect(sent).toMatchObject({ id: 'ref', name: 'reference', model: { id: 'org/model' } });
    expect(sent.source).toEqual({ format: 'mechlens', format_version: '0.3.0' });
    expect(sent.examples).toHaveLength(12);
    expect(sent.examples[0]).toMatchObject({ id: 'ex-001', output: 'Answer number 1.' });
  });

  it('never writes the key to the database, its WAL, or a stored error', async () => {
    const s = await setup();
    s.server.reply((r) =>
      r.idempotencyKey === 'ctrl'
        ? { status: 422, body: { detail: `bad record; you sent ${r.authorization ?? ''}` } }
        : undefined,
    );
    await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
    await syncOnce(s);
    const rejected = outbox(s).find((r) => r.itemId === 'ctrl')!;
    expect(rejected.lastError).toBe('422: bad record; you sent Bearer [key]');
    const files = () =>
      ['', '-wal', '-shm'].map((suffix) => s.dbPath + suffix).filter((f) => fs.existsSync(f));
    const bytes = () => files().map((f) => fs.readFileSync(f).toString('latin1'));
    expect(files().some((f) => f.endsWith('-wal'))).toBe(true);
    for (const content of bytes()) expect(content).not.toContain(KEY);
    await s.service.close();
    for (const content of bytes()) expect(content).not.toContain(KEY);
  });
});

describe('retry timing rules', () => {
  it('reads Retry-After as seconds or an HTTP date, and uses it as a floor on full jitter', () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    const options = { ...defaultSyncOptions, baseDelayMs: 1000, maxDelayMs: 8000 };
    expect(retryDelay(3, null, { ...options, random: () => 0.999 })).toBe(3996);
    expect(retryDelay(10, null, { ...options, random: () => 0.999 })).toBe(7992);
    expect(retryDelay(1, null, { ...options, random: () => 0 })).toBe(0);
    expect(retryDelay(1, 5000, { ...options, random: () => 0.5 })).toBe(5000);
  });
});
