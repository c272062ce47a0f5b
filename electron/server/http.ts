import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PairwiseService } from '../core/service';
import { launchTokenAccess, type Access, type Session } from './access';
import { handleApi, MAX_REQUEST_BYTES, type ApiHost, type RequestNote } from './api';
import {
  hostAllowed,
  loopbackGate,
  newToken,
  originAllowed,
  pageTicket,
  pageTicketCookie,
  publicGate,
  requestToken,
  tokenMatches,
} from './auth';
import { ComparesAfterSync } from './compare-after-sync';
import { EventStreams } from './event-streams';
import { logRequest } from './request-log';
import { securityHeaders, send, sendJson } from './responses';
import { resolveStatic } from './static';
import { receiveSync } from './sync-receiver';

export interface ServerOptions {
  service: PairwiseService;
  rendererDir: string;
  port?: number;
  token?: string;
  /** Largest JSON request body accepted. */
  maxBodyBytes?: number;
  /** The address to listen on: 127.0.0.1 unless a lab server says otherwise. */
  bind?: string;
  /** Who may use the server; by default the per-launch token. */
  access?: Access;
  /** The address people reach a lab server at: its Host and Origin are the only ones allowed. */
  publicUrl?: URL;
  /** Every session read-only (with the launch token; a token file's access says it itself). */
  readOnly?: boolean;
  /** Believe X-Forwarded-Host and X-Forwarded-For from a reverse proxy in front. */
  trustProxy?: boolean;
  /** How long an experiment's sync pushes must pause before it is compared. */
  compareAfterSyncMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The per-launch token; empty when users come from a token file. */
  token: string;
  close(): Promise<void>;
}

export class ServerConfigError extends Error {}

export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127(\.\d{1,3}){3}$/.test(address);
}

/** The page and the renderer's files, for a GET or HEAD that passed the checks. */
function serveStatic(
  rendererDir: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed.');
  const target = resolveStatic(rendererDir, url.pathname);
  if (!target) return send(res, 404, 'Not found.');
  res.writeHead(200, {
    ...securityHeaders,
    'Content-Type': target.type,
    'Cache-Control': 'no-cache',
  });
  if (req.method === 'HEAD') return void res.end();
  fs.createReadStream(target.file).pipe(res);
}

interface Host extends ApiHost {
  rendererDir: string;
  access: Access;
  port: number;
  /** Lets a reload of the page in without the token (see pageTicketCookie). */
  ticket: string;
  trustProxy: boolean;
  /** Where links in sync answers point. */
  baseUrl: string;
  compares: ComparesAfterSync;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The Host the client asked for: a trusted proxy passes it on in X-Forwarded-Host. */
function requestedHost(host: Host, req: IncomingMessage): string | undefined {
  const forwarded = host.trustProxy ? firstHeader(req.headers['x-forwarded-host']) : undefined;
  return forwarded?.split(',')[0]?.trim() ?? req.headers.host;
}

/** The peer, or behind a trusted proxy the address that proxy saw (the last one it added). */
function clientAddress(host: Host, req: IncomingMessage): string | undefined {
  const forwarded = host.trustProxy ? firstHeader(req.headers['x-forwarded-for']) : undefined;
  return forwarded?.split(',').at(-1)?.trim() ?? req.socket.remoteAddress;
}

const unauthorized = {
  launch:
    "Unauthorized: open the address that `pairwise serve` printed; it carries this launch's token.",
  lab: 'Unauthorized: this server needs your Pairwise token (ask its administrator for one).',
};

/**
 * Every request: the health check (which says nothing), then the Host header (DNS rebinding),
 * then the token (or, for the page, the ticket its first load left), then the API, the sync
 * endpoints or a static file.
 */
async function handle(
  host: Host,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  note: RequestNote & { session?: Session },
): Promise<void> {
  if (url.pathname === '/healthz') return send(res, 200, 'ok');
  if (!hostAllowed(host.gate, requestedHost(host, req)))
    return send(res, 403, 'Forbidden: unexpected Host header.');
  const isApi = url.pathname.startsWith('/api/');
  const isPage = url.pathname === '/' || url.pathname === '/index.html';
  const session = host.access.identify(requestToken(req, url, isPage));
  if (session) note.session = session;
  const reloaded = isPage && tokenMatches(host.ticket, pageTicket(req, host.port));
  if ((isApi || isPage) && !session && !reloaded)
    return send(res, 401, host.access.logsRequests ? unauthorized.lab : unauthorized.launch);
  if (url.pathname.startsWith('/api/v1/') && session) {
    if (!originAllowed(host.gate, req.headers.origin))
      return send(res, 403, 'Forbidden: cross-origin request.');
    return receiveSync(host, req, res, url, session);
  }
  if (isApi && session) return handleApi(host, req, res, url, session, note);
  if (isPage && session)
    res.setHeader('Set-Cookie', pageTicketCookie(host.port, host.ticket, host.gate.secure));
  serveStatic(host.rendererDir, req, res, url);
}

/** A server on another address than loopback must know its users and its public address. */
function checkExposure(options: ServerOptions): void {
  const bind = options.bind ?? '127.0.0.1';
  if (isLoopback(bind)) return;
  if (!options.access)
    throw new ServerConfigError(
      `Refusing to listen on ${bind} without --auth: anyone who can reach it could read and change the library.`,
    );
  if (!options.publicUrl)
    throw new ServerConfigError(
      `Listening on ${bind} needs --public-url (the address people open), so the Host and Origin checks still hold.`,
    );
}

/**
 * The browser host: the built renderer and the contract over HTTP POST + Server-Sent Events,
 * bound to 127.0.0.1 with a per-launch token required for every API call and for the page
 * itself (a reload of the page is let in by the ticket cookie its first load left). As a lab
 * server (docs/lab-server.md) it may listen elsewhere, with users from a token file, behind
 * its public URL, and also takes pushes of the sync protocol.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  checkExposure(options);
  const token = options.access ? '' : (options.token ?? newToken());
  const host: Host = {
    service: options.service,
    streams: new EventStreams(options.service.events),
    rendererDir: options.rendererDir,
    access: options.access ?? launchTokenAccess(token, options.readOnly),
    ticket: newToken(),
    maxBody: options.maxBodyBytes ?? MAX_REQUEST_BYTES,
    port: 0,
    gate: loopbackGate(0),
    trustProxy: options.trustProxy ?? false,
    baseUrl: '',
    compares: new ComparesAfterSync(options.service, options.compareAfterSyncMs),
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const note: RequestNote & { session?: Session } = {};
    // The health check comes every few seconds from the container runtime and says nothing.
    if (host.access.logsRequests && url.pathname !== '/healthz')
      res.on('finish', () =>
        logRequest(host.service.log, {
          session: note.session,
          method: req.method,
          path: url.pathname,
          request: note.request,
          status: res.statusCode,
          client: clientAddress(host, req),
        }),
      );
    try {
      await handle(host, req, res, url, note);
    } catch (error) {
      sendJson(res, 500, { ok: false, error: { code: 'internal', message: String(error) } });
    }
  });
  const bind = options.bind ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, bind, () => resolve());
    });
  } catch (error) {
    host.streams.close();
    host.compares.close();
    throw error;
  }
  host.port = (server.address() as AddressInfo).port;
  host.gate = options.publicUrl ? publicGate(options.publicUrl) : loopbackGate(host.port);
  const local = `http://${bind.includes(':') ? `[${bind}]` : bind}:${host.port}`;
  host.baseUrl = options.publicUrl ? options.publicUrl.origin : local;
  return {
    url: token ? `${host.baseUrl}/?token=${token}` : `${host.baseUrl}/`,
    port: host.port,
    token,
    close: async () => {
      host.streams.close();
      host.compares.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
