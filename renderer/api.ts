import type {
  EventName,
  EventPayload,
  RequestInput,
  RequestName,
  RequestOutput,
  Result,
} from '../shared/contract';
import { streamEvents } from './eventStream';

/** What the desktop preload exposes on window.pairwise. */
interface DesktopBridge {
  request(name: string, input: unknown): Promise<Result<unknown>>;
  subscribe(event: string, handler: (payload: unknown) => void): () => void;
  pathForFile(file: File): string;
  pickFolder(): Promise<string | null>;
}

declare global {
  interface Window {
    pairwise?: DesktopBridge;
  }
}

export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What `requestUnlessHeld` answers when the reply is the value the caller already holds. */
export const HELD = Symbol('held');

interface Transport {
  upload?(file: File, relativePath: string, batch: string): Promise<string>;
  request(name: string, input: unknown): Promise<Result<unknown>>;
  /** As `request`, but a reply whose text opens with `head` is not parsed. */
  requestUnlessHeld?(
    name: string,
    input: unknown,
    head: string,
  ): Promise<Result<unknown> | typeof HELD>;
  subscribe(event: string, handler: (payload: unknown) => void): () => void;
}

const tokenKey = 'pairwise.token';

/** The browser host hands the token in the URL once; keep it for reloads and hide it. */
function browserToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(tokenKey, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(tokenKey) ?? '';
}

/**
 * Whether a reply's bytes open with `head`'s. The bytes are compared as they are, so a held
 * reply is never decoded (decoding costs the page's thread ~3 ms a megabyte; reading the body
 * as a stream, more).
 */
function opensWith(body: ArrayBuffer, head: string): boolean {
  const expected = new TextEncoder().encode(head);
  if (body.byteLength < expected.length) return false;
  const opening = new Uint8Array(body, 0, expected.length);
  return expected.every((byte, i) => opening[i] === byte);
}

function httpTransport(): Transport {
  const token = browserToken();
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  let connected = false;
  const connect = () => {
    if (connected) return;
    connected = true;
    void streamEvents(
      '/api/events',
      token,
      (data) => {
        const { name, payload } = JSON.parse(data) as { name: string; payload: unknown };
        for (const handler of handlers.get(name) ?? []) handler(payload);
      },
      new AbortController().signal,
    );
  };
  const post = async (name: string, input: unknown): Promise<Response | Result<never>> => {
    const response = await fetch('/api/request', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name, input }),
    });
    if (response.status !== 401) return response;
    return {
      ok: false,
      error: {
        code: 'bad_request',
        message: 'This page has no valid token: open the address pairwise serve printed.',
      },
    };
  };
  return {
    async upload(file, relativePath, batch) {
      const params = new URLSearchParams({ batch, name: relativePath });
      const response = await fetch(`/api/upload?${params.toString()}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream', Authorization: `Bearer ${token}` },
        body: file,
      });
      const result = (await response.json()) as Result<{ folder: string }>;
      if (!result.ok) throw new RequestError(result.error.code, result.error.message);
      return result.value.folder;
    },
    async request(name, input) {
      const response = await post(name, input);
      return response instanceof Response ? ((await response.json()) as Result<unknown>) : response;
    },
    async requestUnlessHeld(name, input, head) {
      const response = await post(name, input);
      if (!(response instanceof Response)) return response;
      const body = await response.arrayBuffer();
      if (opensWith(body, head)) return HELD;
      return JSON.parse(new TextDecoder().decode(body)) as Result<unknown>;
    },
    subscribe(event, handler) {
      connect();
      const set = handlers.get(event) ?? new Set();
      set.add(handler);
      handlers.set(event, set);
      return () => set.delete(handler);
    },
  };
}

const transport: Transport = window.pairwise ?? httpTransport();

export const isDesktop = Boolean(window.pairwise);

export async function request<N extends RequestName>(
  name: N,
  ...args: Record<string, never> extends RequestInput<N>
    ? [input?: RequestInput<N>]
    : [input: RequestInput<N>]
): Promise<RequestOutput<N>> {
  const result = await transport.request(name, args[0] ?? {});
  if (!result.ok) throw new RequestError(result.error.code, result.error.message);
  return result.value as RequestOutput<N>;
}

/**
 * A request whose answer the caller may hold already: answering `HELD` lets the caller keep the
 * object it holds, so nothing that reads it renders again. `head` is how the server's JSON of
 * the held value begins; over HTTP a reply that begins so is left as bytes and answered with
 * `HELD`. The desktop bridge hands over objects, so there it is an ordinary request.
 */
export async function requestUnlessHeld<N extends RequestName>(
  name: N,
  input: RequestInput<N>,
  head: string | null,
): Promise<RequestOutput<N> | typeof HELD> {
  const result =
    head && transport.requestUnlessHeld
      ? await transport.requestUnlessHeld(name, input, head)
      : await transport.request(name, input);
  if (result === HELD) return HELD;
  if (!result.ok) throw new RequestError(result.error.code, result.error.message);
  return result.value as RequestOutput<N>;
}

export function subscribe<E extends EventName>(
  event: E,
  handler: (payload: EventPayload<E>) => void,
): () => void {
  return transport.subscribe(event, handler as (payload: unknown) => void);
}

export function pickFolder(): Promise<string | null> {
  return window.pairwise ? window.pairwise.pickFolder() : Promise.resolve(null);
}

export function pathForFile(file: File): string | null {
  return window.pairwise ? window.pairwise.pathForFile(file) : null;
}

/**
 * Browser host only: copies dropped files into a managed folder, each at its path relative to
 * what was dropped, and returns the folder's path.
 */
export async function uploadFiles(files: { file: File; path: string }[]): Promise<string> {
  if (!transport.upload) throw new RequestError('bad_request', 'Uploads are for the browser host.');
  const batch = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  let folder = '';
  for (const { file, path } of files) folder = await transport.upload(file, path, batch);
  return folder;
}
