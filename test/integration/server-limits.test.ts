import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../electron/server/http';
import type { OpenedFinding, SavedRevision } from '../../shared/findings';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { callOk, makeServer } from '../fixtures/service';

type Harness = Awaited<ReturnType<typeof makeServer>>;
let harness: Harness | null = null;
let extra: RunningServer | null = null;
afterEach(async () => {
  await extra?.close();
  extra = null;
  await harness?.close();
  harness = null;
});

function post(
  server: RunningServer,
  body: string,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/api/request',
        headers: {
          Host: `127.0.0.1:${server.port}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Authorization: `Bearer ${server.token}`,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (error) => resolve({ error: String(error) }));
    req.end(body);
  });
}

describe('browser host request size', () => {
  it('answers a body over the limit with 413 and a message, not a reset', async () => {
    harness = await makeServer();
    extra = await startServer({
      service: harness.service,
      rendererDir: harness.rendererDir,
      maxBodyBytes: 1024 * 1024,
    });
    const body = JSON.stringify({ name: 'library:status', input: { pad: 'x'.repeat(3_000_000) } });
    const answer = await post(extra, body);
    expect(answer).toMatchObject({ status: 413 });
    if (!('status' in answer)) return;
    const parsed = JSON.parse(answer.body) as { ok: boolean; error: { message: string } };
    expect(parsed.ok).toBe(false);
    expect(parsed.error.message).toMatch(/larger than 1 MB.*Nothing was changed/);
    // The server is still there for the next request.
    expect(await post(extra, JSON.stringify({ name: 'library:status', input: {} }))).toMatchObject({
      status: 200,
    });
  });

  it('saves a schema-valid finding of 4.2 MB through the browser host', async () => {
    harness = await makeServer();
    const lib = path.join(harness.dir, 'lib');
    writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: examples(10) });
    writeMechlensRun(lib, {
      id: 'steer',
      name: 'steer',
      experiment: { id: 'exp-test', role: 'intervention' },
      examples: examples(10, (i) => ({ refused: i % 2 === 0 })),
    });
    await harness.service.index([lib]);
    const view = await callOk<OpenedFinding>(harness.service, 'findings:create', {
      experimentId: 'exp-test',
      resamples: 100,
    });
    const long = 'y'.repeat(200_000);
    const input = {
      findingId: view.finding.id,
      baseRevision: view.revision,
      body: {
        question: long,
        claim: long,
        protocol: long,
        conclusion: long,
        limitations: Array.from({ length: 17 }, (_, i) => ({
          id: `l${i}`,
          text: long,
          origin: 'researcher',
          status: 'accepted',
        })),
        pinned: [],
      },
    };
    const body = JSON.stringify({ name: 'findings:save', input });
    expect(body.length).toBeGreaterThan(4.2e6);
    const answer = await post(harness.server, body);
    expect(answer).toMatchObject({ status: 200 });
    if (!('status' in answer)) return;
    const parsed = JSON.parse(answer.body) as { ok: boolean; value: SavedRevision };
    expect(parsed.ok).toBe(true);
    expect(parsed.value.revision).toBe(view.revision + 1);
  });
});
