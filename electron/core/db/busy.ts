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
