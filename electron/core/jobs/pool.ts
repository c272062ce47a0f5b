import { Worker } from 'node:worker_threads';
import type { JobProgress } from '../../../shared/jobs';
import { CancelledError, WorkerStartError, type FromWorker, type ToWorker } from './protocol';
import type { WorkerEntry } from './worker-path';

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: JobProgress) => void;
  onMessage?: (value: unknown) => void;
}

interface Pending {
  taskId: number;
  payload: unknown;
  options: RunOptions;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  killTimer: NodeJS.Timeout | null;
  /** The worker's code has loaded (it said so). */
  ready: boolean;
}

/**
 * A fixed-size worker_threads pool. Cancel is cooperative first (the worker sees an abort and
 * stops at its next checkpoint) and forced after `graceMs` (the worker is terminated and a fresh
 * one takes its slot), so a stuck parser can never hold a job forever.
 */
export class WorkerPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextTaskId = 1;
  private closed = false;

  /**
   * `retire` says, from a task's result, that its worker should go rather than wait for the
   * next task: a worker that went through a very large unit keeps its heap (hundreds of MB of
   * garbage V8 has no reason to collect while idle) until it works again.
   */
  constructor(
    private readonly entry: WorkerEntry,
    private readonly size: number,
    private readonly graceMs = 2000,
    private readonly retire: (result: unknown) => boolean = () => false,
  ) {}

  run<T>(payload: unknown, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed.'));
    if (options.signal?.aborted) return Promise.reject(new CancelledError());
    return new Promise<T>((resolve, reject) => {
      // One job signal is shared by many tasks: each task's listener goes when the task ends.
      const onAbort = () => this.cancel(pending);
      const settle = () => options.signal?.removeEventListener('abort', onAbort);
      const pending: Pending = {
        taskId: this.nextTaskId++,
        payload,
        options,
        resolve: (value) => {
          settle();
          resolve(value as T);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(pending);
      this.pump();
    });
  }

  /**
   * Starts up to `count` workers before any task needs them, so that loading their code
   * (a few hundred ms each) overlaps whatever the caller does before its first `run`.
   */
  warm(count = this.size): void {
    if (this.closed) return;
    while (this.slots.length < Math.min(count, this.size)) this.spawn();
  }

  /** Workers started and not ended. */
  get workers(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new CancelledError('Shutting down'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    this.slots = [];
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.busy === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.busy = pending;
      // A busy worker keeps the process alive (a CLI waiting on it must not exit); idle ones don't.
      slot.worker.ref();
      const message: ToWorker = { type: 'task', taskId: pending.taskId, payload: pending.payload };
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot {
    const { script, eval: isEval, execArgv } = this.entry;
    const worker = new Worker(script, { eval: isEval, execArgv });
    const slot: Slot = { worker, busy: null, killTimer: null, ready: false };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (error) => {
      if (this.failedToStart(slot, error.message)) return;
      this.onExit(slot, error);
    });
    worker.on('exit', (code) => {
      if (this.failedToStart(slot, `it ended with exit code ${code}`)) return;
      if (slot.busy)
        this.onExit(slot, new Error(`The worker stopped unexpectedly (exit code ${code}).`));
      this.slots = this.slots.filter((s) => s !== slot);
      if (!this.closed) this.pump();
    });
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  /**
   * A worker of this pool that ended before it was ready: its task and every queued one fail
   * with the reason, and no other worker is started for them (it would end the same way). A
   * later `run` tries a fresh worker, so a cause that went away (a file restored) heals.
   */
  private failedToStart(slot: Slot, detail: string): boolean {
    if (slot.ready || this.closed || !this.slots.includes(slot)) return false;
    this.slots = this.slots.filter((s) => s !== slot);
    const error = new WorkerStartError(detail);
    const pending = slot.busy;
    this.release(slot);
    pending?.reject(error);
    for (const queued of this.queue.splice(0)) queued.reject(error);
    return true;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.ready = true;
      return;
    }
    const pending = slot.busy;
    if (!pending || pending.taskId !== message.taskId) return;
    if (message.type === 'progress') {
      pending.options.onProgress?.(message.progress);
      return;
    }
    if (message.type === 'message') {
      pending.options.onMessage?.(message.value);
      return;
    }
    this.release(slot);
    if (message.type === 'result' && this.retire(message.value)) {
      this.slots = this.slots.filter((s) => s !== slot);
      void slot.worker.terminate();
    }
    if (message.type === 'result') pending.resolve(message.value);
    else pending.reject(message.cancelled ? new CancelledError() : new Error(message.message));
    this.pump();
  }

  private onExit(slot: Slot, error: Error): void {
    const pending = slot.busy;
    this.release(slot);
    if (!pending) return;
    pending.reject(pending.options.signal?.aborted ? new CancelledError() : error);
  }

  private release(slot: Slot): void {
    slot.busy = null;
    slot.worker.unref();
    if (slot.killTimer) clearTimeout(slot.killTimer);
    slot.killTimer = null;
  }

  private cancel(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      pending.reject(new CancelledError());
      return;
    }
    const slot = this.slots.find((s) => s.busy === pending);
    if (!slot) return;
    const message: ToWorker = { type: 'cancel', taskId: pending.taskId };
    slot.worker.postMessage(message);
    slot.killTimer = setTimeout(() => {
      if (slot.busy !== pending) return;
      this.release(slot);
      // Out of the pool before it is terminated: a task queued meanwhile must get a fresh
      // worker, not this one, which would die under it.
      this.slots = this.slots.filter((s) => s !== slot);
      pending.reject(new CancelledError());
      void slot.worker.terminate();
      this.pump();
    }, this.graceMs);
  }
}
