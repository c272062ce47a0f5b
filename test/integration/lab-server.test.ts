import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, ServerConfigError } from '../../electron/server/http';
import { requestEffects } from '../../electron/server/permissions';
import { addUser, removeUser } from '../../electron/server/token-file';
import { streamEvents } from '../../renderer/eventStream';
import { requests } from '../../shared/contract';
import { runCli } from '../fixtures/cli';
import { labRequest, raw, startLabServer, type LabServer } from '../fixtures/lab-server';
import { makeService } from '../fixtures/service';

let lab: LabServer | null = null;
afterEach(async () => {
  await lab?.close();
  lab = null;
});

type Answer = {
  ok: boolean;
  value?: Record<string, unknown>;
  error?: { code: string; message: string };
};
const parsed = (body: string) => JSON.parse(body) as Answer;

const changing = Object.entries(requestEffects)
  .filter(([, access]) => access === 'changes')
  .map(([name]) => name);
const reading = Object.entries(requestEffects)
  .filter(([, access]) => access === 'reads')
  .map(([name]) => name);

describe('lab server: exposure', () => {
  it('refuses to listen beyond loopback without a token file or a public URL', async () => {
    const harness = makeService();
    try {
      await expect(
        startServer({ service: harness.service, rendererDir: harness.dir, bind: '0.0.0.0' }),
      ).rejects.toThrow(ServerConfigError);
      await expect(
        startServer({
          service: harness.service,
          rendererDir: harness.dir,
          bind: '0.0.0.0',
          access: { logsRequests: true, identify: () => null },
        }),
      ).rejects.toThrow(/--public-url/);
    } finally {
      await harness.close();
    }
  });

  it('pairwise serve --host 0.0.0.0 without --auth exits 2 and listens on nothing', () => {
    const result = runCli(['serve', '--host', '0.0.0.0', '--no-open']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Refusing to listen on 0\.0\.0\.0 without --auth/);
  });
});

describe('lab server: users and roles', () => {
  it('knows each user by their own token, and refuses others with 401', async () => {
    lab = await startLabServer();
    const alice = parsed((await labRequest(lab, lab.tokens.alice!, 'app:info')).body);
    expect(alice).toMatchObject({ ok: true, value: { readOnly: false } });
    const bob = parsed((await labRequest(lab, lab.tokens.bob!, 'app:info')).body);
    expect(bob).toMatchObject({ ok: true, value: { readOnly: true } });
    expect((await labRequest(lab, 'pw_not-a-token', 'app:info')).status).toBe(401);
    expect((await labRequest(lab, '', 'app:info')).status).toBe(401);
    const page = await raw(lab.server.port, { path: '/', headers: { Host: lab.host } });
    expect(page.status).toBe(401);
    expect(lab.server.token).toBe('');
  });

  it('pairwise serve tokens add prints the token alone on stdout, once; list and remove', async () => {
    const harness = makeService();
    try {
      const file = path.join(harness.dir, 'lab', 'tokens');
      const added = runCli(['serve', 'tokens', 'add', 'alice', '--role', 'editor', '--auth', file]);
      expect(added.status).toBe(0);
      expect(added.stdout).toMatch(/^pw_[\w-]{43}\n$/);
      expect(added.stderr).toMatch(/shown this once/);
      expect(fs.readFileSync(file, 'utf8')).not.toContain(added.stdout.trim());
      const list = runCli(['serve', 'tokens', 'list', '--auth', file]);
      expect(list.stdout).toBe('alice\teditor\n');
      const badRole = runCli(['serve', 'tokens', 'add', 'bob', '--role', 'admin', '--auth', file]);
      expect(badRole.status).toBe(2);
      const removed = runCli(['serve', 'tokens', 'remove', 'alice', '--auth', file]);
      expect(removed.status).toBe(0);
      expect(runCli(['serve', 'tokens', 'remove', 'alice', '--auth', file]).status).toBe(2);
    } finally {
      await harness.close();
    }
  });

  it('takes tokens added or removed while it runs at the next request', async () => {
    lab = await startLabServer();
    const carol = addUser(lab.tokenFile, 'carol', 'editor');
    expect(parsed((await labRequest(lab, carol, 'app:info')).body).ok).toBe(true);
    removeUser(lab.tokenFile, 'bob');
    expect((await labRequest(lab, lab.tokens.bob!, 'app:info')).status).toBe(401);
    expect((await labRequest(lab, lab.tokens.alice!, 'app:info')).status).toBe(200);
    fs.writeFileSync(lab.tokenFile, 'alice editor sha256:not-hex\n');
    expect((await labRequest(lab, lab.tokens.alice!, 'app:info')).status).toBe(200);
    fs.rmSync(lab.tokenFile);
    expect((await labRequest(lab, lab.tokens.alice!, 'app:info')).status).toBe(401);
  });

  it('refuses a reviewer every request that changes the library, with 403 and why', async () => {
    lab = await startLabServer();
    expect(changing.length).toBeGreaterThan(15);
    for (const name of changing) {
      const res = await labRequest(lab, lab.tokens.bob!, name, {});
      expect(res.status, name).toBe(403);
      const body = parsed(res.body);
      expect(body.error?.code, name).toBe('forbidden');
      expect(body.error?.message, name).toMatch(/^read-only: ask an editor \(bob may not/);
    }
    const upload = await raw(lab.server.port, {
      method: 'POST',
      path: '/api/upload?batch=b1&name=run.json',
      headers: {
        Host: lab.host,
        Authorization: `Bearer ${lab.tokens.bob!}`,
        'Content-Type': 'application/octet-stream',
      },
      body: '{}',
    });
    expect(upload.status).toBe(403);
    // Reads go through: answered by the dispatcher, whatever it makes of an empty input.
    for (const name of reading) {
      const res = await labRequest(lab, lab.tokens.bob!, name, {});
      expect(res.status, name).toBe(200);
      expect(parsed(res.body).error?.code, name).not.toBe('forbidden');
    }
    // An editor is not refused the same requests.
    const editor = await labRequest(lab, lab.tokens.alice!, 'runs:setOverride', { runId: 'x' });
    expect(parsed(editor.body).error?.code).not.toBe('forbidden');
  });

  it('takes a token from the address for the page alone, never for the API', async () => {
    lab = await startLabServer();
    const token = lab.tokens.alice!;
    const headers = { Host: lab.host };
    expect((await raw(lab.server.port, { path: `/?token=${token}`, headers })).status).toBe(200);
    const events = await raw(lab.server.port, { path: `/api/events?token=${token}`, headers });
    expect(events.status).toBe(401);
  });

  it("streams events to the page's reader with the token in the header", async () => {
    lab = await startLabServer();
    const received: string[] = [];
    const stop = new AbortController();
    const base = `http://127.0.0.1:${lab.server.port}`;
    const reading = streamEvents(
      `${base}/api/events`,
      lab.tokens.bob!,
      (d) => received.push(d),
      stop.signal,
      10,
    );
    // An event emitted before the stream is open reaches no one: emit until one arrives.
    await vi.waitFor(() => {
      lab!.service.changed();
      expect(received.length).toBeGreaterThan(0);
    });
    stop.abort();
    await reading;
    expect(JSON.parse(received[0]!)).toMatchObject({ name: 'index:changed' });
    // A refused token ends the reader instead of knocking every few seconds forever.
    await streamEvents(
      `${base}/api/events`,
      'pw_wrong',
      () => undefined,
      new AbortController().signal,
      10,
    );
    const refused = lab.logLines().filter((e) => e.path === '/api/events' && e.status === 401);
    expect(refused).toHaveLength(1);
  });

  it('classifies every request of the contract', () => {
    expect(Object.keys(requestEffects).sort()).toEqual(Object.keys(requests).sort());
  });

  it('--read-only refuses editors too', async () => {
    lab = await startLabServer({ readOnly: true });
    const res = await labRequest(lab, lab.tokens.alice!, 'library:addFolder', { path: '/tmp' });
    expect(res.status).toBe(403);
    expect(parsed(res.body).error?.message).toMatch(/read-only: ask an editor/);
    const info = parsed((await labRequest(lab, lab.tokens.alice!, 'app:info')).body);
    expect(info.value?.readOnly).toBe(true);
  });

  it('a local server started --read-only refuses its own launch token every change', async () => {
    const harness = makeService();
    const server = await startServer({
      service: harness.service,
      rendererDir: harness.dir,
      readOnly: true,
    });
    try {
      const call = (name: string, input: unknown) =>
        raw(server.port, {
          method: 'POST',
          path: '/api/request',
          headers: {
            Host: `127.0.0.1:${server.port}`,
            'Content-Type': 'application/json',
            Authorization: `Bearer ${server.token}`,
          },
          body: JSON.stringify({ name, input }),
        });
      expect(parsed((await call('app:info', {})).body).value?.readOnly).toBe(true);
      const refused = await call('library:openSample', {});
      expect(refused.status).toBe(403);
      expect(parsed(refused.body).error?.message).toMatch(/^read-only: ask an editor \(local /);
    } finally {
      await server.close();
      await harness.close();
    }
  });

  it('logs each request with its user and role, never the token', async () => {
    lab = await startLabServer();
    await labRequest(lab, lab.tokens.alice!, 'runs:list');
    await labRequest(lab, lab.tokens.bob!, 'library:openSample');
    await raw(lab.server.port, {
      path: '/api/events',
      headers: { Host: lab.host, Authorization: `Bearer ${lab.tokens.bob!}` },
      method: 'HEAD',
    });
    await labRequest(lab, 'pw_wrong', 'runs:list');
    const entries = lab.logLines().filter((e) => e.msg === 'lab request');
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          user: 'alice',
          role: 'editor',
          request: 'runs:list',
          status: 200,
        }),
        expect.objectContaining({ user: 'bob', request: 'library:openSample', status: 403 }),
        expect.objectContaining({ user: null, status: 401, path: '/api/request' }),
        expect.objectContaining({ user: 'bob', path: '/api/events' }),
      ]),
    );
    for (const token of Object.values(lab.tokens)) expect(lab.logText()).not.toContain(token);
  });
});

describe('lab server: public URL', () => {
  it('accepts only the public URL as Host and Origin, and marks the page cookie Secure', async () => {
    lab = await startLabServer({ publicUrl: 'https://pairwise.lab.example' });
    const token = lab.tokens.alice!;
    expect(lab.server.url).toBe('https://pairwise.lab.example/');
    expect((await labRequest(lab, token, 'app:info')).status).toBe(200);
    const loopbackHost = await labRequest(
      lab,
      token,
      'app:info',
      {},
      {
        Host: `127.0.0.1:${lab.server.port}`,
      },
    );
    expect(loopbackHost.status).toBe(403);
    const rebound = await labRequest(lab, token, 'app:info', {}, { Host: 'evil.example' });
    expect(rebound.status).toBe(403);
    const csrf = await labRequest(lab, token, 'app:info', {}, { Origin: 'https://evil.example' });
    expect(csrf.status).toBe(403);
    const ours = await labRequest(
      lab,
      token,
      'app:info',
      {},
      {
        Origin: 'https://pairwise.lab.example',
      },
    );
    expect(ours.status).toBe(200);
    const page = await raw(lab.server.port, {
      path: `/?token=${token}`,
      headers: { Host: 'pairwise.lab.example' },
    });
    expect(page.status).toBe(200);
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict; Secure$/);
    await lab.close();
    lab = await startLabServer({ publicUrl: 'http://pairwise.lab.example:8080' });
    const plain = await raw(lab.server.port, {
      path: `/?token=${lab.tokens.alice!}`,
      headers: { Host: 'pairwise.lab.example:8080' },
    });
    expect(String(plain.headers['set-cookie'])).toMatch(/SameSite=Strict$/);
  });

  it('believes X-Forwarded-Host only with --trust-proxy', async () => {
    const forwarded = { Host: '127.0.0.1:9', 'X-Forwarded-Host': 'pairwise.lab.example' };
    lab = await startLabServer({ publicUrl: 'https://pairwise.lab.example' });
    expect((await labRequest(lab, lab.tokens.alice!, 'app:info', {}, forwarded)).status).toBe(403);
    await lab.close();
    lab = await startLabServer({ publicUrl: 'https://pairwise.lab.example', trustProxy: true });
    expect((await labRequest(lab, lab.tokens.alice!, 'app:info', {}, forwarded)).status).toBe(200);
    const spoofed = { ...forwarded, 'X-Forwarded-Host': 'evil.example' };
    expect((await labRequest(lab, lab.tokens.alice!, 'app:info', {}, spoofed)).status).toBe(403);
  });

  it('answers /healthz without a token or a known Host, and says nothing', async () => {
    lab = await startLabServer({ publicUrl: 'https://pairwise.lab.example' });
    const health = await raw(lab.server.port, {
      path: '/healthz',
      headers: { Host: `127.0.0.1:${lab.server.port}` },
    });
    expect(health.status).toBe(200);
    expect(health.body).toBe('ok');
    expect(health.headers['cache-control']).toBe('no-store');
    expect(lab.logLines().filter((e) => e.path === '/healthz')).toEqual([]);
  });
});
