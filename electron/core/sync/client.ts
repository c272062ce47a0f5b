import { redact } from './settings';

/**
 * One POST to a MechLens-compatible ingestion endpoint (docs/sync.md), classified into what
 * the outbox does next. The client never retries by itself: the outbox owns retries.
 */

export type SendOutcome =
  | { kind: 'synced'; url: string | null }
  /** 401 (and 403/404/405/3xx: the key or the address is wrong): stop everything. */
  | { kind: 'stop'; status: number; message: string }
  /** 422 and other 4xx: this item is rejected; the rest carry on. */
  | { kind: 'rejected'; status: number; detail: string }
  /** Network errors, timeouts, 408, 429, 5xx: try again later. */
  | { kind: 'retry'; message: string; retryAfterMs: number | null };

export interface SendRequest {
  url: string;
  key: string;
  idempotencyKey: string;
  body: string;
  timeoutMs: number;
  /** The job's cancel: aborting leaves the item as it was (it is re-sent under the same key). */
  signal: AbortSignal;
  now?: () => number;
}

export class SendCancelled extends Error {}

const MAX_DETAIL = 2000;

/**
 * The most of an answer that is read: the `url` of a 2xx or the `detail` of an error fit many
 * times over. The rest of a larger body is never downloaded (a 700 MB error page once took
 * 1.6 GB of memory).
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The first `limit` bytes of the body as text; the rest is left unread and the stream closed. */
async function readLimited(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= limit) {
      reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** Retry-After is seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** FastAPI puts the reason in `detail`: a string, or a list of {loc, msg} for validation errors. */
function detailOf(text: string): string {
  let detail: unknown = text;
  try {
    const parsed = JSON.parse(text) as { detail?: unknown; message?: unknown };
    detail = parsed.detail ?? parsed.message ?? text;
  } catch {
    // Not JSON: the body itself is the explanation.
  }
  const described = Array.isArray(detail)
    ? detail
        .map((d: { loc?: unknown[]; msg?: unknown }) =>
          d && typeof d === 'object' && 'msg' in d
            ? `${(d.loc ?? []).join('.')}: ${String(d.msg)}`
            : JSON.stringify(d),
        )
        .join('; ')
    : typeof detail === 'string'
      ? detail
      : JSON.stringify(detail);
  return described.trim().slice(0, MAX_DETAIL) || '(no explanation given)';
}

function urlOf(text: string): string | null {
  try {
    const url = (JSON.parse(text) as { url?: unknown }).url;
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

function networkMessage(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `No complete answer within ${Math.round(timeoutMs / 1000)} s.`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
  return `Could not reach the server (${reason}).`;
}

export async function send(request: SendRequest): Promise<SendOutcome> {
  const { key } = request;
  if (request.signal.aborted) throw new SendCancelled('Sync was cancelled.');
  // One deadline for the whole exchange, body included, so a server that trickles its answer
  // a byte at a time is cut off too. A plain timer, because AbortSignal.timeout() combined
  // through AbortSignal.any() is only weakly held and may be collected before it fires.
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, request.timeoutMs);
  const cancel = () => deadline.abort();
  request.signal.addEventListener('abort', cancel, { once: true });
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Idempotency-Key': request.idempotencyKey,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: request.body,
      // A redirect would re-send the key to wherever it points: report it instead.
      redirect: 'manual',
      signal: deadline.signal,
    });
    text = await readLimited(response, MAX_ANSWER_BYTES);
  } catch (error) {
    if (request.signal.aborted) throw new SendCancelled('Sync was cancelled.');
    return {
      kind: 'retry',
      message: redact(networkMessage(error, timedOut, request.timeoutMs), key),
      retryAfterMs: null,
    };
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', cancel);
  }
  const status = response.status;
  // Whatever the server sends back may quote the key (a proxy echoing headers): it is stored
  // and shown, so it is redacted like every other text from the server.
  if (status >= 200 && status < 300) {
    const url = urlOf(text);
    return { kind: 'synced', url: url === null ? null : redact(url, key) };
  }
  if (status >= 300 && status < 400)
    return {
      kind: 'stop',
      status,
      message: redact(
        `The server redirected (${status}) to ${response.headers.get('location') ?? 'another address'}: set that address for sync.`,
        key,
      ),
    };
  const detail = redact(detailOf(text), key);
  if (status === 401)
    return {
      kind: 'stop',
      status,
      message: `The server refused the API key (401): ask for a new key in MechLens Cloud → Account → API keys. ${detail}`,
    };
  if (status === 403 || status === 404 || status === 405)
    return {
      kind: 'stop',
      status,
      message: `The server answered ${status}: check the sync address and the key's permissions. ${detail}`,
    };
  if (status === 408 || status === 429 || status >= 500)
    return {
      kind: 'retry',
      message: `The server answered ${status}: ${detail}`,
      retryAfterMs: parseRetryAfter(
        response.headers.get('retry-after'),
        (request.now ?? Date.now)(),
      ),
    };
  return { kind: 'rejected', status, detail };
}
