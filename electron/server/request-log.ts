import type { Logger } from '../core/log';
import type { Session } from './access';

export interface RequestEntry {
  session: Session | undefined;
  method: string | undefined;
  /** The path alone: the query may carry a token (EventSource cannot send a header). */
  path: string;
  /** The contract request's name, for /api/request. */
  request: string | undefined;
  status: number;
  client: string | undefined;
}

/** One line per request of a lab server: who (never their token), what, and the answer. */
export function logRequest(log: Logger, entry: RequestEntry): void {
  log.info(
    {
      user: entry.session?.user ?? null,
      role: entry.session?.role ?? null,
      method: entry.method,
      path: entry.path,
      request: entry.request,
      status: entry.status,
      client: entry.client,
    },
    'lab request',
  );
}
