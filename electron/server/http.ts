import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PairwiseService } from '../core/service';
import { handleApi, MAX_REQUEST_BYTES, type ApiHost } from './api';
import {
  hostAllowed,
  newToken,
  pageTicket,
  pageTicketCookie,
  requestToken,
  tokenMatches,
} from './auth';
import { EventStreams } from './event-streams';
import { securityHeaders, send, sendJson } from './responses';
import { resolveStatic } from './static';

export interface ServerOptions {
  service: PairwiseService;
  rendererDir: string;
  port?: number;
  token?: string;
  /** Largest JSON request body accepted. */
  maxBodyBytes?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
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
  token: string;
  /** Lets a reload of the page in without the token (see pageTicketCookie). */
  ticket: string;
}

/**
 * Every request: the Host header first (DNS rebinding), then the token (or, for the page, the
 * ticket its first load left), then the API or a static file.
 */
async function handle(host: Host, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (!hostAllowed(req.headers.host, host.port))
    return send(res, 403, 'Forbidden: unexpected Host header.');
  const isApi = url.pathname.startsWith('/api/');
  const isPage = url.pathname === '/' || url.pathname === '/index.html';
  const withToken = tokenMatches(host.token, requestToken(req, url));
  const reloaded = isPage && tokenMatches(host.ticket, pageTicket(req, host.port));
  if ((isApi || isPage) && !withToken && !reloaded) {
    return send(
      res,
      401,
      "Unauthorized: open the address that `pairwise serve` printed; it carries this launch's token.",
    );
  }
  if (isApi) return handleApi(host, req, res, url);
  if (isPage && withToken) res.setHeader('Set-Cookie', pageTicketCookie(host.port, host.ticket));
  serveStatic(host.rendererDir, req, res, url);
}

/**
 * The browser host: the built renderer and the contract over HTTP POST + Server-Sent Events,
 * bound to 127.0.0.1 only, with a per-launch token required for every API call and for the
 * page itself (a reload of the page is let in by the ticket cookie its first load left).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host: Host = {
    service: options.service,
    streams: new EventStreams(options.service.events),
    rendererDir: options.rendererDir,
    token: options.token ?? newToken(),
    ticket: newToken(),
    maxBody: options.maxBodyBytes ?? MAX_REQUEST_BYTES,
    port: 0,
  };
  const server = http.createServer(async (req, res) => {
    try {
      await handle(host, req, res);
    } catch (error) {
      sendJson(res, 500, { ok: false, error: { code: 'internal', message: String(error) } });
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    host.streams.close();
    throw error;
  }
  host.port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${host.port}/?token=${host.token}`,
    port: host.port,
    token: host.token,
    close: async () => {
      host.streams.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
