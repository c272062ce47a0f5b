import type { Result } from '../../shared/contract';

/**
 * Requests sent to the core worker and not yet answered. When the worker dies (an error, or an
 * exit without one) every waiting request is answered with the reason, and so is every later
 * one: nothing waits forever on a worker that is gone.
 */
export class PendingRequests {
  private nextId = 1;
  private waiting = new Map<number, (result: Result<unknown>) => void>();
  private stopped: string | null = null;

  /** Registers a request; `send` posts it with its id. Answers at once if the core is gone. */
  add(send: (id: number) => void): Promise<Result<unknown>> {
    if (this.stopped !== null) return Promise.resolve(this.failure(this.stopped));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      try {
        send(id);
      } catch (error) {
        this.waiting.delete(id);
        resolve(this.failure(`The core could not be reached: ${(error as Error).message}`));
      }
    });
  }

  answer(id: number, result: Result<unknown>): void {
    this.waiting.get(id)?.(result);
    this.waiting.delete(id);
  }

  /** The worker is gone: answer everything waiting, and everything asked from now on. */
  stop(reason: string): void {
    this.stopped ??= reason;
    for (const resolve of this.waiting.values()) resolve(this.failure(this.stopped));
    this.waiting.clear();
  }

  get size(): number {
    return this.waiting.size;
  }

  private failure(message: string): Result<unknown> {
    return { ok: false, error: { code: 'internal', message } };
  }
}
