import type { ServerResponse } from 'node:http';
import { contentSecurityPolicy } from '../../shared/csp';

export const securityHeaders = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { ...securityHeaders, 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

/** A request the client got wrong, answered in the contract's error shape. */
export function sendBadRequest(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { ok: false, error: { code: 'bad_request', message } });
}
