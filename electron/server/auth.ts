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

/** The token from `Authorization: Bearer …`, else from `?token=` (EventSource cannot set headers). */
export function requestToken(req: IncomingMessage, url: URL): string | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return url.searchParams.get('token');
}

/**
 * DNS rebinding defence: a page on evil.example resolving to 127.0.0.1 still sends
 * `Host: evil.example`, so only loopback names with our port are accepted.
 */
export function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  return allowed.includes(hostHeader.toLowerCase());
}

/** CSRF defence: a browser always sends Origin on a cross-site POST; ours must be loopback. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  const allowed = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
  return allowed.includes(origin.toLowerCase());
}

/**
 * The page may be reloaded: the address that carried the token has lost it (the page moves it
 * into session storage), so the first page load leaves a cookie that opens the page again. The
 * cookie holds a ticket of its own, never the API token: cookies are not kept apart by port, so
 * another local server could read it, and the ticket opens only the app's static shell; every
 * API call still needs the token from session storage.
 */
export function pageTicketCookie(port: number, ticket: string): string {
  return `pairwise_page_${port}=${ticket}; Path=/; HttpOnly; SameSite=Strict`;
}

export function pageTicket(req: IncomingMessage, port: number): string | null {
  const name = `pairwise_page_${port}=`;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(name)) return trimmed.slice(name.length);
  }
  return null;
}
