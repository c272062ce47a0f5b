import type { MessagePort } from 'node:worker_threads';
import type { SecretStore } from '../core/sync/settings';

export type SecretRequest =
  | { type: 'secret:get'; id: number; name: string }
  | { type: 'secret:set'; id: number; name: string; value: string | null }
  | { type: 'secret:storage'; id: number };

export interface SecretReply {
  type: 'secret:reply';
  id: number;
  value?: string | null;
  error?: string;
}

/**
 * The desktop core's SecretStore: the key lives with Electron's safeStorage in the main
 * process, so the core asks for it over the worker's port and never keeps it anywhere.
 */
export class PortSecretStore implements SecretStore {
  private nextId = 1;
  private pending = new Map<
    number,
    { resolve(value: string | null): void; reject(error: Error): void }
  >();

  constructor(private readonly port: MessagePort) {}

  handle(reply: SecretReply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (reply.error) waiter.reject(new Error(reply.error));
    else waiter.resolve(reply.value ?? null);
  }

  get(name: string): Promise<string | null> {
    return this.ask({ type: 'secret:get', id: this.nextId++, name });
  }

  async set(name: string, value: string | null): Promise<void> {
    await this.ask({ type: 'secret:set', id: this.nextId++, name, value });
  }

  async storage(): Promise<'keychain' | 'memory'> {
    const kind = await this.ask({ type: 'secret:storage', id: this.nextId++ });
    return kind === 'keychain' ? 'keychain' : 'memory';
  }

  private ask(request: SecretRequest): Promise<string | null> {
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.port.postMessage(request);
    });
  }
}
