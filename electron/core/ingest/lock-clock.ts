import { performance } from 'node:perf_hooks';

export interface LockTimes {
  /** From taking the write lock to the end of the commit. */
  lockSeconds: number;
  /**
   * The commits alone, with the WAL checkpoint SQLite runs as a commit ends (after the lock is
   * let go, so another writer may already write meanwhile).
   */
  commitSeconds: number;
}

/**
 * How long a connection held the write lock, and how much of that its commits took: with one
 * writer at a time, their sums over workers against the wall time say whether the lock is the
 * limit, and whether inserting or committing fills it.
 */
export class LockClock {
  private lockedAt: number | null = null;
  private committingAt: number | null = null;
  private times: LockTimes = { lockSeconds: 0, commitSeconds: 0 };

  locked(): void {
    this.lockedAt = performance.now();
  }

  /** The transaction's writes are done and its commit starts. */
  committing(): void {
    this.committingAt = performance.now();
  }

  unlocked(): void {
    const now = performance.now();
    if (this.lockedAt !== null) this.times.lockSeconds += (now - this.lockedAt) / 1000;
    if (this.committingAt !== null) this.times.commitSeconds += (now - this.committingAt) / 1000;
    this.lockedAt = null;
    this.committingAt = null;
  }

  /** The times since the last call. */
  take(): LockTimes {
    const times = this.times;
    this.times = { lockSeconds: 0, commitSeconds: 0 };
    return times;
  }
}
