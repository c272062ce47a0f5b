import { writeBriefly } from '../db/busy';
import type { Db } from '../db/open';

/** How long a write that found the lock taken waits before it tries again. */
const RETRY_MS = 10;

/**
 * The jobs table's writes, in order, without holding up the service's thread: a job starts and
 * ends on that thread, often while a worker's transaction holds the write lock (an index unit's
 * commit, a fill slice), and SQLite's busy wait there blocked every request with it (66 ms at
 * the end of a 1 GB pass). A write waits at most a moment for the lock, then tries again after
 * a pause; the manager answers from memory until it lands.
 */
export class JobJournal {
  private readonly queue: { write: () => void; written: () => void }[] = [];
  /** Set while `drain` runs, which may end before it has returned (nothing to wait for). */
  private running = false;
  private draining: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    /** A write that failed other than on the lock (a full disk): it is dropped, not retried. */
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Queues a write; `written` runs once it is in the database (or can never be). */
  record(write: () => void, written: () => void = () => undefined): void {
    this.queue.push({ write, written });
    if (this.running) return;
    this.running = true;
    this.draining = this.drain();
  }

  /** Resolves once every queued write has landed. */
  async flushed(): Promise<void> {
    while (this.running) await this.draining;
  }

  private async drain(): Promise<void> {
    for (let next = this.queue[0]; next; next = this.queue[0]) {
      // A connection closed under the jobs (a crash) keeps them "running" on disk, which the
      // next open marks interrupted.
      try {
        if (this.db.open) await writeBriefly(this.db, next.write, pause);
      } catch (error) {
        this.failed(error);
      }
      this.queue.shift();
      next.written();
    }
    this.running = false;
  }
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RETRY_MS));
}
