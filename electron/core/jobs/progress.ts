import type { JobProgress } from '../../../shared/jobs';

/**
 * Keeps at most one progress event per interval (≤ 10/s by default) but never drops the
 * latest value: a trailing emit carries whatever arrived last.
 */
export class ProgressThrottle {
  private last = 0;
  private pending: JobProgress | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: (progress: JobProgress) => void,
    private readonly intervalMs = 100,
    private readonly now: () => number = Date.now,
  ) {}

  push(progress: JobProgress): void {
    const elapsed = this.now() - this.last;
    if (elapsed >= this.intervalMs && !this.timer) {
      this.last = this.now();
      this.emit(progress);
      return;
    }
    this.pending = progress;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), Math.max(0, this.intervalMs - elapsed));
      this.timer.unref?.();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending) {
      this.last = this.now();
      const value = this.pending;
      this.pending = null;
      this.emit(value);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }
}
