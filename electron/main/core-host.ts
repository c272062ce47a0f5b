import { app, safeStorage } from 'electron';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Result } from '../../shared/contract';
import type { ServiceOptions } from '../core/service';
import type { SecretRequest } from '../workers/port-secrets';
import { PendingRequests } from './pending';
import { SafeStorageSecrets } from './secrets';

type FromCore =
  | { type: 'response'; id: number; result: Result<unknown> }
  | { type: 'event'; name: string; payload: unknown }
  | { type: 'closed' }
  | SecretRequest;

/** The core service lives in a worker thread: no SQL on Electron's main thread. */
export class CoreHost {
  private worker: Worker;
  private pending = new PendingRequests();
  private listeners = new Set<(name: string, payload: unknown) => void>();
  private secrets = new SafeStorageSecrets(
    path.join(app.getPath('userData'), 'secrets.json'),
    safeStorage,
  );

  constructor(options: ServiceOptions) {
    this.worker = new Worker(path.join(__dirname, 'core.worker.js'), {
      workerData: { options, workerDir: __dirname },
    });
    this.worker.on('message', (message: FromCore) => {
      if (message.type === 'response') {
        this.pending.answer(message.id, message.result);
      } else if (message.type === 'event') {
        for (const listener of this.listeners) listener(message.name, message.payload);
      } else if (message.type.startsWith('secret:')) {
        this.answerSecret(message as SecretRequest);
      }
    });
    this.worker.on('error', (error) => this.pending.stop(`The core stopped: ${error.message}`));
    this.worker.on('exit', (code) =>
      this.pending.stop(`The core stopped (exit code ${code}); restart Pairwise.`),
    );
  }

  private answerSecret(request: SecretRequest): void {
    try {
      let value: string | null = null;
      if (request.type === 'secret:get') value = this.secrets.get(request.name);
      else if (request.type === 'secret:storage') value = this.secrets.storage();
      else this.secrets.set(request.name, request.value);
      this.worker.postMessage({ type: 'secret:reply', id: request.id, value });
    } catch (error) {
      this.worker.postMessage({
        type: 'secret:reply',
        id: request.id,
        error: (error as Error).message,
      });
    }
  }

  request(name: unknown, input: unknown): Promise<Result<unknown>> {
    return this.pending.add((id) => this.worker.postMessage({ type: 'request', id, name, input }));
  }

  onEvent(listener: (name: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3000);
      this.worker.on('message', (message: FromCore) => {
        if (message.type !== 'closed') return;
        clearTimeout(timer);
        resolve();
      });
      this.worker.postMessage({ type: 'close' });
    });
    await this.worker.terminate();
  }
}
