import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findingPayload } from '../../electron/core/findings/store';
import type { FindingRow, OpenedFinding } from '../../shared/findings';
import type { RequestOutput } from '../../shared/contract';
import { cleanupsAfterEach } from '../fixtures/cleanups';
import { examples, mechlensRecord } from '../fixtures/formats';
import { labRequest, startLabServer, type LabServer } from '../fixtures/lab-server';
import { callOk } from '../fixtures/service';
import { syncLibrary, type SyncLibrary } from '../fixtures/sync-library';

const cleanups = cleanupsAfterEach();
beforeEach(() => {
  delete process.env.MECHLENS_API_URL;
  delete process.env.MECHLENS_API_KEY;
});

/** A desktop library with a reference, an intervention and a finding, like a researcher's. */
function client(): Promise<SyncLibrary> {
  return syncLibrary({
    apiKey: 'unused: this library syncs to the lab server',
    runs: [
      { id: 'ref', name: 'reference', examples: examples(12) },
      {
        id: 'steer',
        name: 'steer',
        experiment: { id: 'exp-test', role: 'intervention' },
        examples: examples(12, (i) => ({ refused: i % 3 === 0, score: i % 4 })),
      },
    ],
    sync: { baseDelayMs: 20, maxDelayMs: 200, timeoutMs: 10_000, maxWaitMs: 20_000 },
    cleanups,
  });
}

async function lab(): Promise<LabServer> {
  const server = await startLabServer();
  cleanups.push(() => server.close());
  return server;
}

/** Points the client's sync at the lab with `token` as its API key and runs one pass. */
async function syncTo(c: SyncLibrary, server: LabServer, token: string) {
  process.env.MECHLENS_API_URL = `http://127.0.0.1:${server.server.port}`;
  process.env.MECHLENS_API_KEY = token;
  return c.service.sync.pass(new AbortController().signal, () => undefined);
}

async function labCall<T>(server: LabServer, name: string, input: unknown = {}): Promise<T> {
  const res = await labRequest(server, server.tokens.bob!, name, input);
  const body = JSON.parse(res.body) as { ok: boolean; value: T; error?: { message: string } };
  if (!body.ok) throw new Error(body.error?.message);
  return body.value;
}

describe('desktop sync to a lab server', () => {
  it("stores a client's runs and finding, which a reviewer then reads", async () => {
    const c = await client();
    const server = await lab();
    const result = await syncTo(c, server, server.tokens.alice!);
    expect(result).toMatchObject({ synced: 3, rejected: 0, waiting: 0, stopped: null });

    const runs = await labCall<RequestOutput<'runs:list'>>(server, 'runs:list', {});
    expect(runs.map((r) => r.run_id).sort()).toEqual(['ref', 'steer']);
    expect(runs.every((r) => r.experiment_id === 'exp-test' && r.examples === 12)).toBe(true);

    const findings = await labCall<FindingRow[]>(server, 'findings:list', {});
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ id: c.findingId, experimentId: 'exp-test' });
    const finding = await labCall<OpenedFinding>(server, 'findings:get', {
      findingId: c.findingId,
    });
    const original = await callOk<OpenedFinding>(c.service, 'findings:get', {
      findingId: c.findingId,
    });
    expect(finding.body).toEqual(original.body);
    expect(finding.body.snapshot.runs.map((r) => r.runId).sort()).toEqual(['ref', 'steer']);

    // The lab compares what it received on its own: a reviewer may not start a comparison.
    await vi.waitFor(
      async () => {
        const report = await labCall<{ report: { comparisons: unknown[] } } | null>(
          server,
          'compare:report',
          { experimentId: 'exp-test' },
        );
        expect(report?.report.comparisons.length).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 100 },
    );

    const remote = c.service.db
      .prepare(`SELECT remote_url FROM outbox WHERE kind = 'finding'`)
      .get() as { remote_url: string };
    expect(remote.remote_url).toContain(`#/findings?exp=exp-test&finding=${c.findingId}`);
  });

  it('stores a run pushed twice once, from one client or two', async () => {
    const first = await client();
    const second = await client();
    const server = await lab();
    expect((await syncTo(first, server, server.tokens.alice!)).synced).toBe(3);
    expect((await syncTo(second, server, server.tokens.alice!)).synced).toBe(3);
    const runs = await labCall<RequestOutput<'runs:list'>>(server, 'runs:list', {});
    expect(runs.map((r) => r.run_id).sort()).toEqual(['ref', 'steer']);
    expect(await labCall<FindingRow[]>(server, 'findings:list', {})).toHaveLength(2);

    // The same key again, straight from the wire: the first answer, nothing stored.
    const folder = path.join(server.dir, 'lab-sync', '.mechlens', 'runs');
    const files = fs.readdirSync(folder);
    expect(files).toHaveLength(2);
    const again = await fetch(`http://127.0.0.1:${server.server.port}/api/v1/runs`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.tokens.alice!}`,
        'Idempotency-Key': 'steer',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        id: 'steer',
        project: 'p',
        name: 'n',
        model: { id: 'm' },
        examples: [],
      }),
    });
    expect(again.status).toBe(200);
    expect(fs.readdirSync(folder)).toEqual(files);
    const repeat = pushedFinding(second);
    const findingAgain = await fetch(`http://127.0.0.1:${server.server.port}/api/v1/findings`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.tokens.alice!}`,
        'Idempotency-Key': repeat.id,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(repeat),
    });
    expect(findingAgain.status).toBe(200);
    const stored = server.service.db
      .prepare(`SELECT COUNT(*) AS n FROM finding_revisions`)
      .get() as { n: number };
    expect(stored.n).toBe(2);
  });

  it('indexes a stored record a crash kept out of the library when it is pushed again', async () => {
    const server = await lab();
    const folder = path.join(server.dir, 'lab-sync', '.mechlens', 'runs');
    fs.mkdirSync(folder, { recursive: true });
    const record = mechlensRecord({ id: 'orphan', examples: examples(3) });
    const name = `${createHash('sha256').update('orphan').digest('hex')}.json`;
    fs.writeFileSync(path.join(folder, name), JSON.stringify(record));
    const res = await fetch(`http://127.0.0.1:${server.server.port}/api/v1/runs`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.tokens.alice!}`,
        'Idempotency-Key': 'orphan',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(record),
    });
    expect(res.status).toBe(200);
    const runs = await labCall<RequestOutput<'runs:list'>>(server, 'runs:list', {});
    expect(runs.map((r) => r.run_id)).toEqual(['orphan']);
  });

  it("stops a reviewer's push with 403 and stores nothing", async () => {
    const c = await client();
    const server = await lab();
    const result = await syncTo(c, server, server.tokens.bob!);
    expect(result.synced).toBe(0);
    expect(result.stopped).toMatch(/403.*read-only: ask an editor/);
    expect(await labCall<unknown[]>(server, 'runs:list', {})).toEqual([]);
    expect(await labCall<unknown[]>(server, 'findings:list', {})).toEqual([]);
  });

  it('rejects a run record that cannot be imported with 422, and keeps no file of it', async () => {
    const server = await lab();
    const res = await fetch(`http://127.0.0.1:${server.server.port}/api/v1/runs`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.tokens.alice!}`,
        'Idempotency-Key': 'broken',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ id: 'broken', examples: [{ id: 7 }] }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/could not be imported/);
    expect(fs.readdirSync(path.join(server.dir, 'lab-sync', '.mechlens', 'runs'))).toEqual([]);
    expect(await labCall<unknown[]>(server, 'library:problems', {})).toEqual([]);
  });
});

/** The finding revision `c` pushed, as the wire carried it. */
function pushedFinding(c: SyncLibrary): { id: string } {
  return findingPayload(c.service.db, c.findingId, 1) as { id: string };
}
