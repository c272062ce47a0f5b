import type { JobProgress } from '../../../shared/jobs';

/** Messages between a pool and its workers. Workers talk to the host by messages only. */
export type ToWorker =
  { type: 'task'; taskId: number; payload: unknown } | { type: 'cancel'; taskId: number };

export type FromWorker =
  /** Sent once, when the worker's code has loaded and it takes tasks. */
  | { type: 'ready' }
  | { type: 'progress'; taskId: number; progress: JobProgress }
  | { type: 'message'; taskId: number; value: unknown }
  | { type: 'result'; taskId: number; value: unknown }
  | { type: 'error'; taskId: number; message: string; cancelled?: boolean };

export class CancelledError extends Error {
  constructor(message = 'Cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

/**
 * A worker that ended before its code had loaded (a missing or mismatched native module, a
 * damaged install): every worker started from the same files would end the same way, so the
 * pool fails the work waiting for it at once instead of starting worker after worker.
 */
export class WorkerStartError extends Error {
  constructor(detail: string) {
    // A module error's first line names what is missing; its require stack is for a debugger.
    const reason = detail.split('\n')[0];
    super(
      `A Pairwise worker thread could not start (${reason}): the installation may be damaged; reinstall Pairwise (in a clone of its source: npm ci).`,
    );
    this.name = 'WorkerStartError';
  }
}

export function isCancelled(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError');
}
