import type { Db } from './open';

/** Another connection holds the write lock (WAL lets one connection write at a time). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Index and compare workers each write through their own connection, so a write may find the
 * lock taken past the busy timeout. It is tried again after `pause`, which yields (so a cancel
 * can arrive) and throws when the job is cancelled.
 */
export async function untilWritable<T>(write: () => T, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    try {
      return write();
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
    await pause();
  }
}

/**
 * A write from the service's own thread that must not sit in SQLite's busy wait (which blocks
 * the thread, and every request with it, for up to the connection's busy timeout): tried with
 * a short timeout, then again after `pause` until it gets the lock.
 */
export function writeBriefly<T>(db: Db, write: () => T, pause: () => Promise<void>): Promise<T> {
  return untilWritable(() => {
    const timeout = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 20');
    try {
      return write();
    } finally {
      db.pragma(`busy_timeout = ${timeout}`);
    }
  }, pause);
}
