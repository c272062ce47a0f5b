import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentSecurityPolicy } from '../../shared/csp';
import { dispatch } from '../core/dispatch';
import type { PairwiseService } from '../core/service';
import {
  hostAllowed,
  newToken,
  originAllowed,
  pageTicket,
  pageTicketCookie,
  requestToken,
  tokenMatches,
} from './auth';
import { resolveStatic } from './static';
import { receiveUpload, UploadError } from './upload';

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

const securityHeaders = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { ...securityHeaders, 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

/**
 * The largest request body: a finding's text fields may hold up to 200,000 characters each, and
 * a finding several MB long must save; 64 MiB leaves room for that and keeps one request's
 * memory bounded.
 */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/**
 * How much of a body past the limit is read and dropped before the connection is closed: a
 * client that is still sending when the answer comes back sees a reset instead of the 413, so
 * up to this much the answer waits for the body.
 */
const DRAIN_BYTES = 64 * 1024 * 1024;

/** The body, or null when it is over `limit` (its rest is drained, up to DRAIN_BYTES). */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = declared > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (over) {
        chunks.length = 0;
        if (size > limit + DRAIN_BYTES) resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The browser host: the built renderer and the contract over HTTP POST + Server-Sent Events,
 * bound to 127.0.0.1 only, with a per-launch token required for every API call and for the
 * page itself (a reload of the page is let in by the ticket cookie its first load left).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { service } = options;
  const token = options.token ?? newToken();
  const ticket = newToken();
  const maxBody = options.maxBodyBytes ?? MAX_REQUEST_BYTES;
  const streams = new Set<ServerResponse>();
  let port = 0;

  const unsubscribe = service.events.onAny((name, payload) => {
    const frame = `data: ${JSON.stringify({ name, payload })}\n\n`;
    for (const stream of streams) stream.write(frame);
  });

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (!hostAllowed(req.headers.host, port))
        return send(res, 403, 'Forbidden: unexpected Host header.');
      const isApi = url.pathname.startsWith('/api/');
      const isPage = url.pathname === '/' || url.pathname === '/index.html';
      const withToken = tokenMatches(token, requestToken(req, url));
      const reloaded = isPage && tokenMatches(ticket, pageTicket(req, port));
      if ((isApi || isPage) && !withToken && !reloaded) {
        return send(
          res,
          401,
          "Unauthorized: open the address that `pairwise serve` printed; it carries this launch's token.",
        );
      }
      if (isApi) return await handleApi(req, res, url);
      if (isPage && withToken) res.setHeader('Set-Cookie', pageTicketCookie(port, ticket));
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return send(res, 405, 'Method not allowed.');
      const target = resolveStatic(options.rendererDir, url.pathname);
      if (!target) return send(res, 404, 'Not found.');
      res.writeHead(200, {
        ...securityHeaders,
        'Content-Type': target.type,
        'Cache-Control': 'no-cache',
      });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(target.file).pipe(res);
    } catch (error) {
      sendJson(res, 500, { ok: false, error: { code: 'internal', message: String(error) } });
    }
  });

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, {
        ...securityHeaders,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (url.pathname === '/api/upload' && req.method === 'POST') {
      if (!originAllowed(req.headers.origin, port))
        return send(res, 403, 'Forbidden: cross-origin request.');
      try {
        const folder = await receiveUpload(req, service.dataDir, url);
        return sendJson(res, 200, { ok: true, value: { folder } });
      } catch (error) {
        const message =
          error instanceof UploadError ? error.message : `The upload failed: ${String(error)}`;
        return sendJson(res, 400, { ok: false, error: { code: 'bad_request', message } });
      }
    }
    if (url.pathname === '/api/request' && req.method === 'POST') {
      if (!originAllowed(req.headers.origin, port))
        return send(res, 403, 'Forbidden: cross-origin request.');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendJson(res, 415, {
          ok: false,
          error: { code: 'bad_request', message: 'Send JSON.' },
        });
      }
      const body = await readBody(req, maxBody);
      if (body === null) {
        res.setHeader('Connection', 'close');
        sendJson(res, 413, {
          ok: false,
          error: {
            code: 'bad_request',
            message: `The request is larger than ${Math.round(maxBody / 1024 / 1024)} MB, the most Pairwise accepts in one request. Nothing was changed.`,
          },
        });
        // A client still sending past the drained part is cut off once it has the answer.
        res.on('finish', () => req.destroy());
        return;
      }
      let message: { name?: unknown; input?: unknown };
      try {
        message = JSON.parse(body) as typeof message;
      } catch {
        return sendJson(res, 400, {
          ok: false,
          error: { code: 'bad_request', message: 'The body is not JSON.' },
        });
      }
      if (!message || typeof message !== 'object') {
        return sendJson(res, 400, {
          ok: false,
          error: { code: 'bad_request', message: 'Expected {name, input}.' },
        });
      }
      const result = await dispatch(service, message.name, message.input);
      return sendJson(res, 200, result);
    }
    send(res, 404, 'Not found.');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const keepAlive = setInterval(() => {
    for (const stream of streams) stream.write(': keep-alive\n\n');
  }, 15_000);
  keepAlive.unref();

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      clearInterval(keepAlive);
      unsubscribe();
      for (const stream of streams) stream.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
