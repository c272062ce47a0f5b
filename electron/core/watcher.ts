import { watch, type FSWatcher } from 'chokidar';

/**
 * Watches added folders and calls back once things settle: a burst of writes from a running
 * experiment becomes one rescan, not hundreds.
 */
export class FolderWatcher {
  private watchers = new Map<string, { watcher: FSWatcher; timer: NodeJS.Timeout | null }>();
  private closed = false;

  constructor(
    private readonly onSettled: (folder: string) => void,
    /** A folder that can no longer be watched (permissions, too many files, removed disk). */
    private readonly onError: (folder: string, error: Error) => void = () => undefined,
    private readonly debounceMs = 750,
  ) {}

  add(folder: string): void {
    // A folder added by a request that raced the close would be watched by no one's watcher.
    if (this.closed || this.watchers.has(folder)) return;
    const watcher = watch(folder, {
      ignoreInitial: true,
      ignored: (p) => /[\\/](node_modules|\.git|workspace)([\\/]|$)/.test(p),
      awaitWriteFinish: { stabilityThreshold: 300, pollInterval: 100 },
    });
    const entry = { watcher, timer: null as NodeJS.Timeout | null };
    const poke = () => {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = setTimeout(() => this.onSettled(folder), this.debounceMs);
    };
    watcher.on('all', poke);
    watcher.on('error', (error) =>
      this.onError(folder, error instanceof Error ? error : new Error(String(error))),
    );
    this.watchers.set(folder, entry);
  }

  async remove(folder: string): Promise<void> {
    const entry = this.watchers.get(folder);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    this.watchers.delete(folder);
    await entry.watcher.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.watchers.keys()].map((folder) => this.remove(folder)));
  }
}
