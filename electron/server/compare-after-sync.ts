import type { PairwiseService } from '../core/service';

/** How long an experiment's pushes must pause before the lab compares it. */
export const COMPARE_AFTER_SYNC_MS = 5000;

/**
 * Compares each experiment that received runs over sync once the pushes to it pause, so a
 * reviewer (who may not start a comparison) finds it compared. A sync pass sends its runs one
 * after another; comparing after each would start a comparison per run, each cancelling the one
 * before.
 */
export class ComparesAfterSync {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly service: PairwiseService,
    private readonly quietMs = COMPARE_AFTER_SYNC_MS,
  ) {}

  received(experimentId: string): void {
    clearTimeout(this.timers.get(experimentId));
    const timer = setTimeout(() => {
      this.timers.delete(experimentId);
      try {
        this.service.compare.start({ experimentId });
      } catch (error) {
        // An experiment without a reference waits for an editor to pick one.
        this.service.log.info({ experimentId, err: error }, 'synced experiment not compared');
      }
    }, this.quietMs);
    timer.unref();
    this.timers.set(experimentId, timer);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
