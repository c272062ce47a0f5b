import type { JobProgress } from '../../../shared/jobs';

/** Messages between a pool and its workers. Workers talk to the host by messages only. */
export type ToWorker =
  { type: 'task'; taskId: number; payload: unknown } | { type: 'cancel'; taskId: number };

export type FromWorker =
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

export function isCancelled(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError');
}
