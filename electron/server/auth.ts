import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The token from `Authorization: Bearer …`; for the page alone also from `?token=`, the address
 * `pairwise serve` prints (the page then moves it out of the address bar). An API call never
 * takes it from the address, where proxies and browser history would keep it.
 */
export function requestToken(req: IncomingMessage, url: URL, isPage: boolean): string | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return isPage ? url.searchParams.get('token') : null;
}

/**
 * Which Host and Origin a request may carry. Loopback: `127.0.0.1`, `localhost` or `[::1]`
 * with our port. Behind a public URL (a lab server): that URL's host and origin alone.
 */
export interface Gate {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
  /** Whether the page is reached over https, so its cookie is marked Secure. */
  secure: boolean;
}

export function loopbackGate(port: number): Gate {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  return {
    hosts: new Set(names.map((name) => `${name}:${port}`)),
    origins: new Set(names.map((name) => `http://${name}:${port}`)),
    secure: false,
  };
}

export function publicGate(publicUrl: URL): Gate {
  return {
    hosts: new Set([publicUrl.host.toLowerCase()]),
    origins: new Set([publicUrl.origin.toLowerCase()]),
    secure: publicUrl.protocol === 'https:',
  };
}

/**
 * DNS rebinding defence: a page on evil.example resolving to our address still sends
 * `Host: evil.example`, so only the names the gate lists are accepted.
 */
export function hostAllowed(gate: Gate, hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && gate.hosts.has(hostHeader.toLowerCase());
}

/** CSRF defence: a browser always sends Origin on a cross-site POST; ours must be listed. */
export function originAllowed(gate: Gate, origin: string | undefined): boolean {
  return origin === undefined || gate.origins.has(origin.toLowerCase());
}

/**
 * The page may be reloaded: the address that carried the token has lost it (the page moves it
 * into session storage), so the first page load leaves a cookie that opens the page again. The
 * cookie holds a ticket of its own, never the API token: cookies are not kept apart by port, so
 * another local server could read it, and the ticket opens only the app's static shell; every
 * API call still needs the token from session storage.
 */
export function pageTicketCookie(port: number, ticket: string, secure: boolean): string {
  return `pairwise_page_${port}=${ticket}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function pageTicket(req: IncomingMessage, port: number): string | null {
  const name = `pairwise_page_${port}=`;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(name)) return trimmed.slice(name.length);
  }
  return null;
}
