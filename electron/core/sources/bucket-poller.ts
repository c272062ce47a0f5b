/**
 * A bucket cannot be watched: stores send no change events a desktop app could receive. A
 * watched s3:// address is listed again every `intervalMs` instead, each pass starting only
 * after the previous one ended. A pass whose ETags and sizes are unchanged reads no object,
 * so a poll of a quiet bucket costs one listing (one request per 1,000 keys).
 */
export class BucketPoller {
  private timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    /** Starts one index pass of the address and settles when it ended. */
    private readonly pass: (address: string) => Promise<unknown>,
    private readonly intervalMs: number,
  ) {}

  add(address: string): void {
    // An address added by a request that raced the close would be polled on a closed library.
    if (this.closed || this.timers.has(address)) return;
    this.schedule(address);
  }

  private schedule(address: string): void {
    const timer = setTimeout(() => {
      void this.pass(address)
        .catch(() => undefined)
        .then(() => {
          if (this.timers.get(address) === timer) this.schedule(address);
        });
    }, this.intervalMs);
    // A poll never keeps a CLI or a closing app alive.
    timer.unref();
    this.timers.set(address, timer);
  }

  remove(address: string): void {
    clearTimeout(this.timers.get(address));
    this.timers.delete(address);
  }

  close(): void {
    this.closed = true;
    for (const address of [...this.timers.keys()]) this.remove(address);
  }
}
