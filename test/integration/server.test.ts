import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../electron/server/http';
import { raw } from '../fixtures/lab-server';
import { makeServer } from '../fixtures/service';

type Harness = Awaited<ReturnType<typeof makeServer>>;
let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

function api(h: Harness, body: unknown, headers: Record<string, string> = {}) {
  return raw(h.server.port, {
    method: 'POST',
    path: '/api/request',
    headers: {
      Host: `127.0.0.1:${h.server.port}`,
      'Content-Type': 'application/json',
      Authorization: `Bearer ${h.server.token}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('browser host', () => {
  it('binds to loopback and prints a URL with the token', async () => {
    harness = await makeServer();
    expect(harness.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
  });

  it('answers a valid request through the contract', async () => {
    harness = await makeServer();
    const res = await api(harness, { name: 'app:info', input: {} });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { ok: boolean; value: { name: string } };
    expect(body).toMatchObject({ ok: true, value: { name: 'Pairwise' } });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('rejects requests without the token, or with a wrong one, with 401', async () => {
    harness = await makeServer();
    const host = `127.0.0.1:${harness.server.port}`;
    const noToken = await raw(harness.server.port, {
      method: 'POST',
      path: '/api/request',
      headers: { Host: host, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'app:info', input: {} }),
    });
    expect(noToken.status).toBe(401);
    expect(
      (await api(harness, { name: 'app:info' }, { Authorization: 'Bearer nope' })).status,
    ).toBe(401);
    expect((await raw(harness.server.port, { path: '/', headers: { Host: host } })).status).toBe(
      401,
    );
    expect(
      (await raw(harness.server.port, { path: '/api/events', headers: { Host: host } })).status,
    ).toBe(401);
    const page = await raw(harness.server.port, {
      path: `/?token=${harness.server.token}`,
      headers: { Host: host },
    });
    expect(page.status).toBe(200);
  });

  it('lets a reload of the page in by the ticket cookie its first load left, and nothing else', async () => {
    harness = await makeServer();
    const { port, token } = harness.server;
    const host = `127.0.0.1:${port}`;
    const first = await raw(port, { path: `/?token=${token}`, headers: { Host: host } });
    const cookie = String(first.headers['set-cookie']?.[0] ?? '');
    expect(cookie).toMatch(
      new RegExp(`^pairwise_page_${port}=[\\w-]{20,}; Path=/; HttpOnly; SameSite=Strict$`),
    );
    expect(cookie).not.toContain(token);
    const ticket = cookie.split(';')[0]!;

    const reload = await raw(port, { path: '/', headers: { Host: host, Cookie: ticket } });
    expect(reload.status).toBe(200);
    expect(reload.body).toContain('<title>Pairwise</title>');
    // The ticket opens the page only: the API and the event stream still need the token.
    const apiWithTicket = await raw(port, {
      method: 'POST',
      path: '/api/request',
      headers: { Host: host, 'Content-Type': 'application/json', Cookie: ticket },
      body: JSON.stringify({ name: 'app:info', input: {} }),
    });
    expect(apiWithTicket.status).toBe(401);
    expect(
      (await raw(port, { path: '/api/events', headers: { Host: host, Cookie: ticket } })).status,
    ).toBe(401);
    const forged = await raw(port, {
      path: '/',
      headers: { Host: host, Cookie: `pairwise_page_${port}=${token}` },
    });
    expect(forged.status).toBe(401);
  });

  it('rejects a foreign Host header (DNS rebinding) and a foreign Origin (CSRF)', async () => {
    harness = await makeServer();
    expect(
      (
        await api(
          harness,
          { name: 'app:info', input: {} },
          { Host: `evil.example:${harness.server.port}` },
        )
      ).status,
    ).toBe(403);
    expect(
      (await api(harness, { name: 'app:info', input: {} }, { Origin: 'http://evil.example' }))
        .status,
    ).toBe(403);
    expect(
      (
        await api(
          harness,
          { name: 'app:info', input: {} },
          { Origin: `http://127.0.0.1:${harness.server.port}` },
        )
      ).status,
    ).toBe(200);
  });

  it('validates input against the contract and says what is wrong', async () => {
    harness = await makeServer();
    const bad = JSON.parse(
      (await api(harness, { name: 'jobs:cancel', input: { jobId: 42 } })).body,
    ) as {
      ok: boolean;
      error: { code: string; message: string };
    };
    expect(bad.ok).toBe(false);
    expect(bad.error.code).toBe('bad_request');
    expect(bad.error.message).toMatch(/jobs:cancel.*jobId/);
    const unknown = JSON.parse((await api(harness, { name: 'db:drop', input: {} })).body) as {
      error: { code: string };
    };
    expect(unknown.error.code).toBe('unknown_request');
    const notJson = await raw(harness.server.port, {
      method: 'POST',
      path: '/api/request',
      headers: {
        Host: `127.0.0.1:${harness.server.port}`,
        'Content-Type': 'application/json',
        Authorization: `Bearer ${harness.server.token}`,
      },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
  });

  it('never serves files outside the renderer folder', async () => {
    harness = await makeServer();
    const secret = path.join(harness.dir, 'secret.txt');
    fs.writeFileSync(secret, 'top secret');
    fs.symlinkSync(secret, path.join(harness.rendererDir, 'link.txt'));
    const host = `127.0.0.1:${harness.server.port}`;
    for (const p of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      `/${encodeURIComponent(secret)}`,
      '/link.txt',
      '/%00',
    ]) {
      const res = await raw(harness.server.port, { path: p, headers: { Host: host } });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('top secret');
    }
    expect(
      (await raw(harness.server.port, { path: '/app.js', headers: { Host: host } })).status,
    ).toBe(200);
  });

  it('stores dropped files inside the uploads folder only, and only run files', async () => {
    harness = await makeServer();
    const h = harness;
    const upload = (query: string, body: string, token = h.server.token) =>
      raw(h.server.port, {
        method: 'POST',
        path: `/api/upload?${query}`,
        headers: {
          Host: `127.0.0.1:${h.server.port}`,
          'Content-Type': 'application/octet-stream',
          Authorization: `Bearer ${token}`,
        },
        body,
      });
    const ok = await upload('batch=b1&name=..%2F..%2Fevil.json', '{"a":1}');
    expect(ok.status).toBe(200);
    const folder = (JSON.parse(ok.body) as { value: { folder: string } }).value.folder;
    expect(folder).toBe(path.join(h.service.dataDir, 'uploads', 'b1'));
    expect(fs.readdirSync(folder)).toEqual(['evil.json']);
    expect((await upload('batch=b1&name=run.exe', 'MZ')).status).toBe(400);
    expect((await upload('batch=..&name=x.json', '{}')).status).toBe(400);
    expect((await upload('batch=b2&name=x.json', '{}', 'wrong')).status).toBe(401);
  });

  it('keeps the structure of dropped folders: two run folders keep their own run.json', async () => {
    harness = await makeServer();
    const h = harness;
    const upload = (name: string, body: string) =>
      raw(h.server.port, {
        method: 'POST',
        path: `/api/upload?batch=b3&name=${encodeURIComponent(name)}`,
        headers: {
          Host: `127.0.0.1:${h.server.port}`,
          'Content-Type': 'application/octet-stream',
          Authorization: `Bearer ${h.server.token}`,
        },
        body,
      });
    for (const [name, body] of [
      ['run-a/run.json', '{"run":"a"}'],
      ['run-b/run.json', '{"run":"b"}'],
      ['project/.mechlens/runs/r1.json', '{}'],
      ['run-b/../../../escape.json', '{}'],
    ] as const)
      expect((await upload(name, body)).status).toBe(200);
    const folder = path.join(h.service.dataDir, 'uploads', 'b3');
    expect(fs.readFileSync(path.join(folder, 'run-a', 'run.json'), 'utf8')).toBe('{"run":"a"}');
    expect(fs.readFileSync(path.join(folder, 'run-b', 'run.json'), 'utf8')).toBe('{"run":"b"}');
    expect(fs.existsSync(path.join(folder, 'project', '.mechlens', 'runs', 'r1.json'))).toBe(true);
    expect(fs.existsSync(path.join(folder, 'run-b', 'escape.json'))).toBe(true);
  });
});

/** Whether anything accepts a TCP connection at this address and port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('browser host, hostile callers', () => {
  it("listens on 127.0.0.1 only: not on the machine's other addresses, nor on ::1", async () => {
    harness = await makeServer();
    const { port } = harness.server;
    expect(await accepts('127.0.0.1', port)).toBe(true);
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal)
      .map((a) => a!.address);
    for (const address of [...others, '::1']) {
      expect(await accepts(address, port), address).toBe(false);
    }
  });

  it("makes a new token per launch: one server's token opens nothing on another", async () => {
    harness = await makeServer();
    const other = await startServer({
      service: harness.service,
      rendererDir: harness.rendererDir,
    });
    try {
      expect(other.token).not.toBe(harness.server.token);
      expect(other.token.length).toBeGreaterThanOrEqual(32);
      const res = await raw(other.port, {
        method: 'POST',
        path: '/api/request',
        headers: {
          Host: `127.0.0.1:${other.port}`,
          'Content-Type': 'application/json',
          Authorization: `Bearer ${harness.server.token}`,
        },
        body: JSON.stringify({ name: 'app:info', input: {} }),
      });
      expect(res.status).toBe(401);
      const page = await raw(other.port, {
        path: `/?token=${harness.server.token}`,
        headers: { Host: `127.0.0.1:${other.port}` },
      });
      expect(page.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('refuses Host headers and Origins that are not this loopback port', async () => {
    harness = await makeServer();
    const h = harness;
    const { port } = h.server;
    for (const host of [
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `0.0.0.0:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
    ]) {
      expect((await api(h, { name: 'app:info', input: {} }, { Host: host })).status, host).toBe(
        403,
      );
    }
    expect(
      (await api(h, { name: 'app:info', input: {} }, { Host: `localhost:${port}` })).status,
    ).toBe(200);
    for (const origin of [
      'null',
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1:${port + 1}`,
      `http://127.0.0.1:${port}.evil.example`,
      'file://',
    ]) {
      expect(
        (await api(h, { name: 'app:info', input: {} }, { Origin: origin })).status,
        origin,
      ).toBe(403);
    }
    // Even with the token, a cross-origin upload is refused.
    const upload = await raw(port, {
      method: 'POST',
      path: '/api/upload?batch=b&name=x.json',
      headers: {
        Host: `127.0.0.1:${port}`,
        Origin: 'http://evil.example',
        Authorization: `Bearer ${h.server.token}`,
      },
      body: '{}',
    });
    expect(upload.status).toBe(403);
  });

  it('lists no folder: /assets/ and /assets are 404', async () => {
    harness = await makeServer();
    fs.mkdirSync(path.join(harness.rendererDir, 'assets'));
    fs.writeFileSync(path.join(harness.rendererDir, 'assets', 'index-abc.js'), 'console.log(2)');
    const host = `127.0.0.1:${harness.server.port}`;
    for (const p of ['/assets/', '/assets', '/assets/.', '/./assets/', '/assets//']) {
      const res = await raw(harness.server.port, { path: p, headers: { Host: host } });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('index-abc.js');
    }
    expect(
      (await raw(harness.server.port, { path: '/assets/index-abc.js', headers: { Host: host } }))
        .status,
    ).toBe(200);
  });

  it('serves nothing outside the renderer folder, however the path is spelt', async () => {
    harness = await makeServer();
    const secret = path.join(harness.dir, 'secret.txt');
    fs.writeFileSync(secret, 'top secret');
    fs.mkdirSync(path.join(harness.rendererDir, 'assets'));
    // A folder inside the served one that links out of it.
    fs.symlinkSync(harness.dir, path.join(harness.rendererDir, 'assets', 'out'));
    const host = `127.0.0.1:${harness.server.port}`;
    for (const p of [
      '/%252e%252e/secret.txt',
      '/%252e%252e%252fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/.%2e/secret.txt',
      '//etc/passwd',
      '/%2fetc%2fpasswd',
      `/${secret}`,
      '/assets/out/secret.txt',
      '/assets/out/pairwise.db',
      '/..\\secret.txt',
      '/%c0%ae%c0%ae/secret.txt',
      '/secret.txt%00.js',
    ]) {
      const res = await raw(harness.server.port, { path: p, headers: { Host: host } });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('top secret');
    }
  });
});
