import fs from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { startCli } from '../fixtures/cli';
import { cleanupsAfterEach } from '../fixtures/cleanups';
import { examples } from '../fixtures/formats';
import { syncLibrary } from '../fixtures/sync-library';
import type { Received, Reply } from '../fixtures/sync-server';

/**
 * Issue 7: the sync key never reaches the database (and its WAL), events, job errors, stored
 * outbox errors or remote URLs, finding exports, or the CLI's output, even when the server
 * echoes it back in every place it can. sync.test.ts covers the plain cases (a 422 detail that
 * quotes the Authorization header); these are the rest.
 *
 * Pairwise writes no log files and has no crash reporter (nothing calls Electron's
 * crashReporter), so the places a key could leak are exactly these.
 */

const KEY = 'ml_secret_0f1e2d3c4b5a69788796a5b4c3d2e1f0';

const cleanups = cleanupsAfterEach();
beforeEach(() => {
  delete process.env.MECHLENS_API_URL;
  delete process.env.MECHLENS_API_KEY;
});

/** A server that quotes the Authorization header back in whatever it answers. */
function echoing(kind: 'url' | 'redirect' | '401' | '500' | '422'): (r: Received) => Reply {
  return (r) => {
    const echo = encodeURIComponent(r.authorization ?? '');
    switch (kind) {
      case 'url':
        return {
          status: 201,
          body: { id: r.idempotencyKey, url: `https://cloud.example/r/1?auth=${r.authorization}` },
        };
      case 'redirect':
        return { status: 302, headers: { Location: `https://evil.example/?k=${r.authorization}` } };
      case '401':
        return { status: 401, body: { detail: `no such key: ${r.authorization}` } };
      case '500':
        return { status: 500, body: `crashed handling ${r.authorization} (${echo})` };
      case '422':
        return {
          status: 422,
          body: { detail: [{ loc: ['header', r.authorization], msg: r.authorization }] },
        };
    }
  };
}

async function setup() {
  const s = await syncLibrary({
    apiKey: KEY,
    runs: [
      { id: 'ref', name: 'reference', examples: examples(4) },
      {
        id: 'steer',
        name: 'steer',
        experiment: { id: 'exp-test', role: 'intervention' },
        examples: examples(4, (i) => ({ refused: i % 2 === 0, score: 1 })),
      },
    ],
    sync: { baseDelayMs: 10, maxDelayMs: 50, timeoutMs: 1_000, maxWaitMs: 300 },
    cleanups,
  });
  const seen: string[] = [];
  const unsubscribe = s.service.events.onAny((name, payload) =>
    seen.push(`${name} ${JSON.stringify(payload)}`),
  );
  const close = async () => {
    unsubscribe();
    await s.service.close();
  };
  return { ...s, seen, close };
}

function dbBytes(dbPath: string): string[] {
  return ['', '-wal', '-shm']
    .map((suffix) => dbPath + suffix)
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file).toString('latin1'));
}

describe('the sync key, against a server that echoes it everywhere', () => {
  it.each(['url', 'redirect', '401', '500', '422'] as const)(
    'a %s answer leaves no trace of the key in the database, events, job errors, status or exports',
    async (kind) => {
      const s = await setup();
      s.server.reply(echoing(kind));
      await s.call('sync:configure', { url: s.server.url, apiKey: KEY });
      const { jobId } = await s.call<{ jobId: string }>('sync:run', {});
      const job = await s.service.jobs.wait(jobId);
      // The server did see the key: the echo is real.
      expect(s.server.received[0]?.authorization).toBe(`Bearer ${KEY}`);

      const visible = [
        JSON.stringify(job),
        JSON.stringify(await s.call('sync:status', { limit: 1000 })),
        JSON.stringify(await s.call('jobs:list', {})),
        ...s.seen,
        (
          await s.call<{ content: string }>('findings:export', {
            findingId: s.findingId,
            format: 'markdown',
          })
        ).content,
        (
          await s.call<{ content: string }>('findings:export', {
            findingId: s.findingId,
            format: 'html',
          })
        ).content,
      ];
      for (const text of visible) expect(text).not.toContain(KEY);
      for (const bytes of dbBytes(s.dbPath)) expect(bytes).not.toContain(KEY);
      await s.close();
      for (const bytes of dbBytes(s.dbPath)) expect(bytes).not.toContain(KEY);
    },
  );

  it('pairwise sync prints no key, whatever the server sends back', async () => {
    const s = await setup();
    await s.close();
    for (const kind of ['url', '401', '422'] as const) {
      s.server.reply(echoing(kind));
      const run = await startCli(['sync', '--db', s.dbPath], {
        MECHLENS_API_URL: s.server.url,
        MECHLENS_API_KEY: KEY,
      }).done;
      const output = run.stdout + run.stderr;
      expect(output.length).toBeGreaterThan(0);
      expect(output, kind).not.toContain(KEY);
    }
    for (const bytes of dbBytes(s.dbPath)) expect(bytes).not.toContain(KEY);
  }, 60_000);
});
