import type { OutboxItem, SyncPlan, SyncStatus } from '../../../shared/findings';
import type { Db } from '../db/open';
import { ConflictError, NotFoundError } from '../errors';
import type { EventHub } from '../events';
import type { JobManager } from '../jobs/manager';
import type { SendOutcome } from './client';
import { defaultSyncOptions, drainOutbox, type PassResult, type SyncOptions } from './drain';
import * as outbox from './outbox';
import { currentRunIds, runRecord } from './records';
import {
  API_KEY_SECRET,
  normalizeEndpoint,
  resolveCredentials,
  saveEndpoint,
  savedEndpoint,
  type SecretStore,
} from './settings';

/**
 * Optional sync with a MechLens-compatible server (docs/sync.md): off until an address and a
 * key are known. What the contract's sync:* requests and `pairwise sync` call.
 */
export class SyncEngine {
  readonly options: SyncOptions;
  private runningJob: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobManager,
    private readonly events: EventHub,
    private readonly secrets: SecretStore,
    options: Partial<SyncOptions> = {},
  ) {
    this.options = { ...defaultSyncOptions, ...options };
  }

  async status(limit = 200): Promise<SyncStatus> {
    const credentials = await resolveCredentials(this.db, this.secrets);
    return {
      configured: Boolean(credentials.url && credentials.key),
      endpoint: credentials.url,
      endpointSource: credentials.urlSource,
      keySource: credentials.keySource,
      keyStorage: await this.secrets.storage(),
      counts: outbox.counts(this.db),
      items: outbox.recentItems(this.db, limit),
      changedSinceSync: outbox.changedSinceSync(this.db),
    };
  }

  /** A new key is the answer to a 401, so rows stopped by one go back in the queue. */
  async configure(input: { url: string | null; apiKey?: string | null }): Promise<SyncStatus> {
    let url: string | null;
    try {
      url = input.url === null ? null : normalizeEndpoint(input.url);
    } catch (error) {
      throw new ConflictError((error as Error).message);
    }
    // A key belongs to the server it was given for: a new address without a new key forgets
    // the stored one, so it is never sent to a server it was not meant for.
    const previous = savedEndpoint(this.db);
    const moved =
      previous !== null && (url === null || new URL(url).origin !== new URL(previous).origin);
    saveEndpoint(this.db, url);
    if (moved && input.apiKey === undefined) await this.secrets.set(API_KEY_SECRET, null);
    if (input.apiKey !== undefined) {
      await this.secrets.set(API_KEY_SECRET, input.apiKey?.trim() || null);
      if (input.apiKey) outbox.resumeStopped(this.db);
    }
    this.changed();
    return this.status();
  }

  /**
   * What a pass would do now; changes nothing (`sync:run {dryRun}`, `pairwise sync --dry-run`).
   * With `experimentIds`, only those experiments' runs would be queued.
   */
  plan(experimentIds?: readonly string[]): SyncPlan {
    const queued = outbox.queuedRunIds(this.db);
    return {
      newRuns: currentRunIds(this.db, experimentIds).filter((id) => !queued.has(id)),
      queued: outbox.queued(this.db),
    };
  }

  /** Starts a sync job, or answers with the one already running: two passes would race. */
  async start(experimentIds?: readonly string[]): Promise<string> {
    await this.requireCredentials();
    if (this.runningJob) return this.runningJob;
    const jobId = this.jobs.start('sync', 'Syncing with MechLens', async (ctx) => {
      let done = 0;
      const result = await this.pass(
        ctx.signal,
        () => ctx.progress({ phase: 'sending', done: ++done, total: null }),
        experimentIds,
      );
      if (result.stopped) throw new Error(result.stopped);
    });
    this.runningJob = jobId;
    void this.jobs.wait(jobId).then(() => {
      if (this.runningJob === jobId) this.runningJob = null;
    });
    return jobId;
  }

  async retryNow(id?: number): Promise<{ retried: number; jobId: string | null }> {
    if (id !== undefined && !this.db.prepare(`SELECT 1 FROM outbox WHERE id = ?`).get(id))
      throw new NotFoundError(`There is no outbox item ${id}.`);
    const retried = outbox.retryNow(this.db, id);
    this.changed();
    const { url, key } = await resolveCredentials(this.db, this.secrets);
    return { retried, jobId: retried > 0 && url && key ? await this.start() : null };
  }

  /**
   * One explicit sync: queue every current run not queued before (keyed by run id, so a run
   * is sent once) — of the chosen experiments only, when some are given — put stopped rows
   * back, and drain the outbox in order.
   */
  async pass(
    signal: AbortSignal,
    onItem?: (item: OutboxItem, outcome: SendOutcome) => void,
    experimentIds?: readonly string[],
  ): Promise<PassResult & { enqueued: number }> {
    const { url, key } = await this.requireCredentials();
    let enqueued = 0;
    for (const runId of this.plan(experimentIds).newRuns) {
      if (signal.aborted) break;
      const made = await runRecord(this.db, runId);
      if (made && outbox.enqueueRun(this.db, runId, made.sha256, made.body)) enqueued++;
    }
    outbox.resumeStopped(this.db);
    this.changed();
    const result = await drainOutbox(this.db, { url, key, signal, onItem }, this.options, () =>
      this.changed(),
    );
    return { ...result, enqueued };
  }

  private async requireCredentials(): Promise<{ url: string; key: string }> {
    const { url, key } = await resolveCredentials(this.db, this.secrets);
    if (!url || !key)
      throw new ConflictError(
        'Sync is not set up: give the MechLens address and an API key (or set MECHLENS_API_URL and MECHLENS_API_KEY).',
      );
    return { url, key };
  }

  /** Outbox counts changed (also after a finding save, which queues a revision). */
  changed(): void {
    this.events.emit('sync:changed', { counts: outbox.counts(this.db) });
  }
}
