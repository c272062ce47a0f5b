import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Result } from '../../shared/contract';
import type { ServiceOptions } from '../core/service';

/** The core service lives in a worker thread: no SQL on Electron's main thread. */
export class CoreHost {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, (result: Result<unknown>) => void>();
  private listeners = new Set<(name: string, payload: unknown) => void>();

  constructor(options: ServiceOptions) {
    this.worker = new Worker(path.join(__dirname, 'core.worker.js'), {
      workerData: { options, workerDir: __dirname },
    });
    this.worker.on(
      'message',
      (message: {
        type: string;
        id?: number;
        result?: Result<unknown>;
        name?: string;
        payload?: unknown;
      }) => {
        if (message.type === 'response' && message.id !== undefined) {
          this.pending.get(message.id)?.(message.result!);
          this.pending.delete(message.id);
        } else if (message.type === 'event') {
          for (const listener of this.listeners) listener(message.name!, message.payload);
        }
      },
    );
    this.worker.on('error', (error) => {
      for (const resolve of this.pending.values()) {
        resolve({
          ok: false,
          error: { code: 'internal', message: `The core stopped: ${error.message}` },
        });
      }
      this.pending.clear();
    });
  }

  request(name: unknown, input: unknown): Promise<Result<unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ type: 'request', id, name, input });
    });
  }

  onEvent(listener: (name: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3000);
      this.worker.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      this.worker.postMessage({ type: 'close' });
    });
    await this.worker.terminate();
  }
}
