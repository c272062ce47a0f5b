import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { tokenFileAccess, type Access } from '../server/access';
import { isLoopback, startServer } from '../server/http';
import { parseTokenFile, TokenFileError } from '../server/token-file';
import { InputError, openService, UsageError, type Io } from './commands';
import { rendererDir } from './paths';
import { tokensCommand } from './tokens';

/** A lab server listens here unless --port says otherwise (the Docker image publishes it). */
const LAB_PORT = 8080;

export interface ServeOptions {
  db?: string;
  port?: string;
  open?: boolean;
  demo?: boolean;
  host?: string;
  auth?: string;
  publicUrl?: string;
  readOnly?: boolean;
  trustProxy?: boolean;
}

function openBrowser(url: string): void {
  const hasDisplay =
    process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (!hasDisplay) return;
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

/** The public address: http(s), at the root, with nothing but a scheme, host and port. */
export function parsePublicUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--public-url must be an address such as https://pairwise.lab.example.`);
  }
  if (!['http:', 'https:'].includes(url.protocol))
    throw new UsageError('--public-url must start with https:// (or http://).');
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    throw new UsageError(
      '--public-url must be the origin alone (https://host[:port]), without a path, query or user.',
    );
  return url;
}

/** The checks `serve` makes before opening anything, so a refusal changes nothing. */
export function checkServeOptions(opts: ServeOptions): {
  bind: string;
  port: number;
  publicUrl: URL | undefined;
} {
  const bind = opts.host ?? '127.0.0.1';
  const exposed = !isLoopback(bind);
  if (exposed && !opts.auth)
    throw new UsageError(
      `Refusing to listen on ${bind} without --auth FILE: anyone who can reach it could read and change the library.`,
    );
  if (exposed && !opts.publicUrl)
    throw new UsageError(
      `--host ${bind} needs --public-url (the https:// address people open), so the Host and Origin checks still hold.`,
    );
  if (opts.trustProxy && !opts.publicUrl)
    throw new UsageError('--trust-proxy needs --public-url: the proxy serves that address.');
  const port = opts.port === undefined ? (exposed ? LAB_PORT : 0) : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535, not ${opts.port}.`);
  return { bind, port, publicUrl: opts.publicUrl ? parsePublicUrl(opts.publicUrl) : undefined };
}

/** A one-token file holds the token itself: it must not be readable by other users. */
function warnAboutSharedToken(file: string, io: Io): void {
  const { shared } = parseTokenFile(fs.readFileSync(file, 'utf8'), file);
  const mode = fs.statSync(file).mode;
  if (shared && process.platform !== 'win32' && (mode & 0o077) !== 0)
    io.err(
      `pairwise: warning: ${file} holds a token in clear and other users can read it (chmod 600 it), or use per-user lines.`,
    );
}

function labAccess(opts: ServeOptions, io: Io, onReloadError: (error: Error) => void): Access {
  const file = opts.auth!;
  try {
    warnAboutSharedToken(file, io);
    return tokenFileAccess(file, { readOnly: opts.readOnly, onReloadError });
  } catch (error) {
    if (error instanceof TokenFileError) throw new InputError(error.message);
    if ((error as { code?: string }).code === 'ENOENT')
      throw new InputError(
        `There is no token file at ${file}: make one with \`pairwise serve tokens add USER --role editor --auth ${file}\`.`,
      );
    throw error;
  }
}

export async function serveCommand(opts: ServeOptions, io: Io): Promise<number> {
  const { bind, port, publicUrl } = checkServeOptions(opts);
  const renderer = rendererDir();
  if (!renderer) {
    io.err(
      'The app has not been built yet: run `npm run build` (or `npm run serve`, which builds first).',
    );
    return 1;
  }
  let access: Access | undefined;
  const reloadErrors: Error[] = [];
  if (opts.auth)
    access = labAccess(opts, io, (error) => {
      reloadErrors.push(error);
      io.err(`pairwise: the token file no longer reads (${error.message}); keeping its old users.`);
    });
  const service = openService(opts.db, 'browser', true);
  if (opts.demo) await service.handlers['library:openSample']({});
  const server = await startServer({
    service,
    rendererDir: renderer,
    port,
    bind,
    access,
    publicUrl,
    readOnly: opts.readOnly,
    trustProxy: opts.trustProxy,
  });
  if (access) {
    io.out(
      `Pairwise lab server listening on ${bind}:${server.port}${opts.readOnly ? ' (read-only)' : ''}`,
    );
    io.out(
      `Open ${server.url}?token=YOUR_TOKEN (tokens: pairwise serve tokens add USER --role R --auth ${opts.auth}).`,
    );
  } else {
    io.out(`Pairwise is running at ${server.url}${opts.readOnly ? ' (read-only)' : ''}`);
  }
  io.out(`Database: ${service.db.name}`);
  if (opts.open !== false && !access) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await service.close();
  return 0;
}

/** `pairwise serve [flags]` and `pairwise serve tokens …`. */
export async function serveMain(args: string[], io: Io): Promise<number> {
  if (args[0] === 'tokens') return tokensCommand(args.slice(1), io);
  const { values } = parseArgs({
    args,
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      'no-open': { type: 'boolean' },
      demo: { type: 'boolean' },
      host: { type: 'string' },
      auth: { type: 'string' },
      'public-url': { type: 'string' },
      'read-only': { type: 'boolean' },
      'trust-proxy': { type: 'boolean' },
    },
    strict: true,
  });
  return serveCommand(
    {
      db: values.db,
      port: values.port,
      open: !values['no-open'],
      demo: values.demo,
      host: values.host,
      auth: values.auth,
      // The Docker image's command names no address: the container is given it at run time.
      publicUrl: values['public-url'] ?? (process.env.PAIRWISE_PUBLIC_URL || undefined),
      readOnly: values['read-only'],
      trustProxy: values['trust-proxy'],
    },
    io,
  );
}
