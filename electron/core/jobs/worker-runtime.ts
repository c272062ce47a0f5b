import { parentPort } from 'node:worker_threads';
import type { JobProgress } from '../../../shared/jobs';
import { CancelledError, isCancelled, type FromWorker, type ToWorker } from './protocol';

export interface TaskContext {
  signal: AbortSignal;
  progress(progress: JobProgress): void;
  /** Streams a value to the host before the result (e.g. one parsed run at a time). */
  send(value: unknown): void;
  throwIfCancelled(): void;
}

/** The worker side of the pool protocol: one task at a time, cancel by AbortSignal. */
export function serveTasks(
  handler: (payload: unknown, ctx: TaskContext) => Promise<unknown>,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks must run inside a worker thread.');
  const controllers = new Map<number, AbortController>();
  const post = (message: FromWorker) => port.postMessage(message);

  port.on('message', (message: ToWorker) => {
    if (message.type === 'cancel') {
      controllers.get(message.taskId)?.abort();
      return;
    }
    const { taskId } = message;
    const controller = new AbortController();
    controllers.set(taskId, controller);
    const ctx: TaskContext = {
      signal: controller.signal,
      progress: (progress) => post({ type: 'progress', taskId, progress }),
      send: (value) => post({ type: 'message', taskId, value }),
      throwIfCancelled: () => {
        if (controller.signal.aborted) throw new CancelledError();
      },
    };
    handler(message.payload, ctx)
      .then((value) => post({ type: 'result', taskId, value }))
      .catch((error: unknown) =>
        post({
          type: 'error',
          taskId,
          message: error instanceof Error ? error.message : String(error),
          cancelled: isCancelled(error),
        }),
      )
      .finally(() => controllers.delete(taskId));
  });
  post({ type: 'ready' });
}
