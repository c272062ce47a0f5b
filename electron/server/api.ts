import type { IncomingMessage, ServerResponse } from 'node:http';
import { dispatch } from '../core/dispatch';
import type { PairwiseService } from '../core/service';
import type { Session } from './access';
import { originAllowed, type Gate } from './auth';
import type { EventStreams } from './event-streams';
import { changesLibrary, READ_ONLY_MESSAGE } from './permissions';
import { send, sendBadRequest, sendJson } from './responses';
import { receiveUpload, UploadError } from './upload';

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

/** What the API answers with; `gate` lists the Host and Origin requests may carry. */
export interface ApiHost {
  service: PairwiseService;
  streams: EventStreams;
  gate: Gate;
  maxBody: number;
}

/** What the request log says about one API call beyond its path. */
export interface RequestNote {
  request?: string;
}

/** The body, or null when it is over `limit` (its rest is drained, up to DRAIN_BYTES). */
export function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
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

async function answerUpload(
  host: ApiHost,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  try {
    const folder = await receiveUpload(req, host.service.dataDir, url);
    sendJson(res, 200, { ok: true, value: { folder } });
  } catch (error) {
    const message =
      error instanceof UploadError ? error.message : `The upload failed: ${String(error)}`;
    sendBadRequest(res, 400, message);
  }
}

function refuseReadOnly(res: ServerResponse, session: Session, what: string): void {
  sendJson(res, 403, {
    ok: false,
    error: {
      code: 'forbidden',
      message: `${READ_ONLY_MESSAGE} (${session.user} may not ${what} on this server).`,
    },
  });
}

/**
 * One contract request: `{name, input}` in, the dispatcher's answer out. A read-only session
 * is refused every request that changes the library before the dispatcher sees it; its
 * `app:info` says it is read-only, so the page can disable what would be refused.
 */
async function answerRequest(
  host: ApiHost,
  req: IncomingMessage,
  res: ServerResponse,
  session: Session,
  note: RequestNote,
): Promise<void> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
    return sendBadRequest(res, 415, 'Send JSON.');
  const body = await readBody(req, host.maxBody);
  if (body === null) {
    res.setHeader('Connection', 'close');
    sendBadRequest(
      res,
      413,
      `The request is larger than ${Math.round(host.maxBody / 1024 / 1024)} MB, the most Pairwise accepts in one request. Nothing was changed.`,
    );
    // A client still sending past the drained part is cut off once it has the answer.
    res.on('finish', () => req.destroy());
    return;
  }
  let message: { name?: unknown; input?: unknown };
  try {
    message = JSON.parse(body) as typeof message;
  } catch {
    return sendBadRequest(res, 400, 'The body is not JSON.');
  }
  if (!message || typeof message !== 'object')
    return sendBadRequest(res, 400, 'Expected {name, input}.');
  if (typeof message.name === 'string') note.request = message.name.slice(0, 100);
  if (session.readOnly && changesLibrary(message.name))
    return refuseReadOnly(res, session, `call ${String(message.name)}`);
  const result = await dispatch(host.service, message.name, message.input);
  if (message.name === 'app:info' && result.ok)
    result.value = { ...(result.value as object), readOnly: session.readOnly };
  sendJson(res, 200, result);
}

/** `/api/*`, once the token was checked: events, uploads and contract requests. */
export async function handleApi(
  host: ApiHost,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  session: Session,
  note: RequestNote,
): Promise<void> {
  if (url.pathname === '/api/events' && req.method === 'GET') return host.streams.open(req, res);
  const upload = url.pathname === '/api/upload';
  if ((upload || url.pathname === '/api/request') && req.method === 'POST') {
    if (!originAllowed(host.gate, req.headers.origin))
      return send(res, 403, 'Forbidden: cross-origin request.');
    if (upload && session.readOnly) return refuseReadOnly(res, session, 'upload files');
    return upload
      ? answerUpload(host, req, res, url)
      : answerRequest(host, req, res, session, note);
  }
  send(res, 404, 'Not found.');
}
