import type { EventName, EventPayload } from '../../shared/contract';

type Handler<E extends EventName> = (payload: EventPayload<E>) => void;

/** A tiny typed emitter: hosts forward these events to the renderer unchanged. */
export class EventHub {
  private handlers = new Map<EventName, Set<(payload: unknown) => void>>();
  private anyHandlers = new Set<(name: EventName, payload: unknown) => void>();

  on<E extends EventName>(name: E, handler: Handler<E>): () => void {
    const set = this.handlers.get(name) ?? new Set();
    set.add(handler as (payload: unknown) => void);
    this.handlers.set(name, set);
    return () => set.delete(handler as (payload: unknown) => void);
  }

  onAny(handler: (name: EventName, payload: unknown) => void): () => void {
    this.anyHandlers.add(handler);
    return () => this.anyHandlers.delete(handler);
  }

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const handler of this.handlers.get(name) ?? []) handler(payload);
    for (const handler of this.anyHandlers) handler(name, payload);
  }
}
