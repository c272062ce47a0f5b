import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addUser } from '../../electron/server/token-file';
import { startCli } from '../fixtures/cli';
import { raw } from '../fixtures/lab-server';
import { tempDir } from '../fixtures/tmp';

/**
 * Docker cannot run here, so the image is checked by what can be: its Dockerfile's settings,
 * and the command and health check it runs, run as they are (from source) against a data folder
 * standing in for the /data volume.
 */

const root = path.resolve(__dirname, '../..');
const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const built = fs.existsSync(path.join(root, 'out/renderer/index.html'));

/** The exec form (JSON array) of the last `name` instruction, its continuation lines joined. */
function execForm(name: string): string[] {
  const text = dockerfile.replace(/\s*\\\n\s*/g, ' ');
  const line = text
    .split('\n')
    .filter((l) => l.startsWith(`${name} `))
    .at(-1);
  const json = line?.slice(line.indexOf('['));
  if (!json) throw new Error(`The Dockerfile has no ${name} in exec form.`);
  return JSON.parse(json) as string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let cleanup: () => unknown = () => undefined;
afterEach(async () => {
  await cleanup();
  cleanup = () => undefined;
});

describe('Dockerfile', () => {
  it('builds on node:20-bookworm-slim and runs as a non-root user with /data as a volume', () => {
    const froms = dockerfile.match(/^FROM .*$/gm) ?? [];
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(/^FROM node:20-bookworm-slim\b/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime.indexOf('USER node')).toBeLessThan(runtime.indexOf('ENTRYPOINT'));
    expect(runtime).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
    expect(execForm('ENTRYPOINT')).toEqual(['node', '/app/out/main/cli.js']);
    const command = execForm('CMD');
    expect(command.slice(0, 3)).toEqual(['serve', '--host', '0.0.0.0']);
    const port = command[command.indexOf('--port') + 1];
    expect(runtime).toMatch(new RegExp(`^EXPOSE ${port}$`, 'm'));
    expect(execForm('HEALTHCHECK').join(' ')).toContain(`127.0.0.1:${port}/healthz`);
    const ignored = fs.readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'out', '.git', '*.db']) expect(ignored).toContain(entry);
  });

  it.skipIf(!built)(
    'its command serves the library behind PAIRWISE_PUBLIC_URL and passes its health check (needs `npm run build`)',
    async () => {
      const t = tempDir();
      const port = await freePort();
      const token = addUser(path.join(t.dir, 'tokens'), 'alice', 'editor');
      const args = execForm('CMD').map((arg) =>
        arg === '8080' ? String(port) : arg.replace(/^\/data\//, `${t.dir}/`),
      );
      const refused = await startCli(args, { PAIRWISE_PUBLIC_URL: '' }).done;
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/needs --public-url/);

      const server = startCli(args, { PAIRWISE_PUBLIC_URL: 'https://pairwise.lab.example' });
      cleanup = async () => {
        server.child.kill('SIGTERM');
        await server.done;
        t.cleanup();
      };
      await new Promise<void>((resolve, reject) => {
        server.child.stdout!.on('data', (d: Buffer) => {
          if (d.toString().includes('Database:')) resolve();
        });
        void server.done.then((r) => reject(new Error(`serve exited: ${r.stderr}`)));
      });
      const healthcheck = execForm('HEALTHCHECK').map((arg) => arg.replace(':8080/', `:${port}/`));
      expect(healthcheck[0]).toBe('node');
      expect(spawnSync(process.execPath, healthcheck.slice(1)).status).toBe(0);
      const info = await raw(port, {
        method: 'POST',
        path: '/api/request',
        headers: {
          Host: 'pairwise.lab.example',
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ name: 'app:info', input: {} }),
      });
      expect(JSON.parse(info.body)).toMatchObject({
        ok: true,
        value: { dbPath: path.join(t.dir, 'library.db'), readOnly: false },
      });
      server.child.kill('SIGTERM');
      expect((await server.done).status).toBe(0);
    },
  );
});
