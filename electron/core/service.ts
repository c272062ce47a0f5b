import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RequestOutput } from '../../shared/contract';
import { sweepPairFiles } from './compare/pair-files';
import { ComparisonRunner } from './compare/runner';
import { closeLibrary, openLibrary, type Db } from './db/open';
import { EventHub } from './events';
import { FindingsService } from './findings';
import { watchedFolders } from './folders';
import { exploreHandlers } from './handlers/explore';
import { findingsSyncHandlers } from './handlers/findings-sync';
import { libraryHandlers } from './handlers/library';
import type { Handlers } from './handlers/types';
import { workbenchHandlers } from './handlers/workbench';
import { retiresIndexWorker } from './ingest/index-unit';
import { indexPaths, type IndexStats } from './ingest/indexer';
import { BucketPoller } from './sources/bucket-poller';
import { watchedBuckets } from './sources/buckets';
import { isS3Url, type S3Settings } from './sources/s3-location';
import { JobManager } from './jobs/manager';
import { WorkerPool } from './jobs/pool';
import { workerEntry } from './jobs/worker-path';
import { openLog, type Logger } from './log';
import { logIndexPass, logJob } from './log-events';
import type { SyncOptions } from './sync/drain';
import { SyncEngine } from './sync/engine';
import { SearchIndexer } from './search/indexer';
import { TextArchiver } from './texts/archive-job';
import { convertLibrary, runsToConvert } from './texts/convert';
import { MemorySecretStore, type SecretStore } from './sync/settings';
import { FolderWatcher } from './watcher';

export interface ServiceOptions {
  dbPath: string;
  /** Where to log; by default a rotating file in `<dataDir>/pairwise-logs/`. */
  log?: Logger;
  /** Also log debug entries to stderr (the CLI's --verbose). */
  verbose?: boolean;
  dataDir?: string;
  host: 'desktop' | 'browser' | 'cli';
  version: string;
  /** The demo library shipped in resources/samples. */
  samplesDir?: string;
  canPickFolders?: boolean;
  /**
   * Archive texts in the background once search is ready (texts/archive-job.ts); by default
   * on for the desktop and browser hosts, off for the CLI, whose `index` asks for it.
   */
  archive?: boolean;
  /** How long an archive slice runs; 0: one block a slice, so tests can stop it mid-way. */
  archiveSliceMs?: number;
  /** Watch added folders for changes (off for one-shot CLI commands). */
  watch?: boolean;
  indexWorkers?: number;
  /**
   * Start the index workers as the library opens rather than at the first pass (the desktop
   * app and the browser host, which open long before a folder is dropped): a pass on fresh
   * workers otherwise waits for each to start and load its code. Off for one-shot commands,
   * which would start them for nothing.
   */
  startIndexWorkers?: boolean;
  /**
   * Compare workers keep each pairing (and its criteria) for the next comparison of the same
   * runs, and mirror it when their roles swap (default on). Off, a comparison pairs its runs
   * anew from the tables the worker holds: the benchmark's measure of a first pairing.
   */
  keepPairings?: boolean;
  /** How often a watched s3:// address is listed again (default five minutes). */
  bucketPollMs?: number;
  // findings & sync
  /** Where the sync API key lives: safeStorage on desktop; in memory (and env) for CLI/server. */
  secrets?: SecretStore;
  sync?: Partial<SyncOptions>;
}

/**
 * The one service behind every host. It implements shared/contract.ts; hosts only validate,
 * forward and relay events. Nothing here imports electron.
 */
export class PairwiseService {
  readonly db: Db;
  readonly events = new EventHub();
  readonly jobs: JobManager;
  readonly dataDir: string;
  readonly compare: ComparisonRunner;
  /** Fills the full-text index in the background after each index pass. */
  readonly search: SearchIndexer;
  /** Compresses the indexed texts into the library once search is ready. */
  readonly archive: TextArchiver;
  // findings & sync
  readonly findings: FindingsService;
  readonly sync: SyncEngine;
  private indexPool: WorkerPool | null = null;
  private watcher: FolderWatcher | null;
  private poller: BucketPoller | null;
  private indexChain: Promise<unknown> = Promise.resolve();
  readonly log: Logger;
  /** Closes the log this service opened; a log passed in belongs to the caller. */
  private readonly closeLog: () => Promise<void>;
  /** Folders the watcher lost, shown with the library's problems until they are watched again. */
  private readonly lostFolders = new Map<string, { message: string; at: string }>();

  constructor(private readonly options: ServiceOptions) {
    this.dataDir = options.dataDir ?? path.dirname(path.resolve(options.dbPath));
    if (options.log) {
      this.log = options.log;
      this.closeLog = () => Promise.resolve();
    } else {
      const log = openLog({ dataDir: this.dataDir, verbose: options.verbose });
      this.log = log.logger;
      this.closeLog = log.close;
    }
    this.log.info(
      { host: options.host, version: options.version, db: path.resolve(options.dbPath) },
      'library opening',
    );
    try {
      this.db = openLibrary(options.dbPath);
    } catch (error) {
      this.log.error({ err: error }, 'library could not be opened');
      void this.closeLog();
      throw error;
    }
    this.jobs = new JobManager(this.db, {
      started: () => this.events.emit('jobs:changed', {}),
      progress: (jobId, progress) => this.events.emit('job:progress', { jobId, progress }),
      finished: (job) => {
        logJob(this.log, job);
        this.events.emit('job:finished', { job });
        this.events.emit('jobs:changed', {});
      },
      unrecorded: (error) => this.log.error({ err: error }, 'a job could not be recorded'),
    });
    this.search = new SearchIndexer(this.db, this.jobs, {
      settled: () => this.archive.schedule(),
    });
    this.archive = new TextArchiver(this.db, this.jobs, this.search, {
      enabled: options.archive ?? options.host !== 'cli',
      sliceMs: options.archiveSliceMs,
      log: this.log,
    });
    // Before any comparison can be saving: files a crash left without a row.
    sweepPairFiles(this.db);
    this.compare = new ComparisonRunner(
      this.db,
      path.resolve(options.dbPath),
      this.jobs,
      this.events,
      { keepPairings: options.keepPairings },
    );
    // findings & sync
    this.sync = new SyncEngine(
      this.db,
      this.jobs,
      this.events,
      options.secrets ?? new MemorySecretStore(),
      options.sync,
    );
    this.findings = new FindingsService(this.db, this.compare, () => this.sync.changed());
    this.watcher = options.watch
      ? new FolderWatcher(
          (folder) => this.startIndex([folder], 'Updating'),
          (folder, error) => this.watchFailed(folder, error),
        )
      : null;
    const watched = this.watcher ? watchedFolders(this.db) : [];
    for (const folder of watched) this.watcher?.add(folder);
    this.poller = options.watch
      ? new BucketPoller((address) => this.pollBucket(address), options.bucketPollMs ?? 300_000)
      : null;
    for (const bucket of this.poller ? watchedBuckets(this.db) : []) this.poller?.add(bucket.path);
    if (runsToConvert(this.db).length > 0) this.startConversion();
    if (options.startIndexWorkers) this.pool().warm();
    if (watched.length > 0) this.rescanAtOpen(watched);
    // Runs a crash or an older Pairwise left unsearchable.
    this.search.schedule();
  }

  /**
   * A library indexed before texts moved into blocks: each run's rows become blocks and a
   * column store, in the background (a request needing a run not yet converted is refused
   * with how far the conversion is), and converted runs become searchable again.
   */
  private startConversion(): void {
    this.conversionJob = this.jobs.start('index', 'Preparing runs for comparison', async (ctx) => {
      await convertLibrary(this.db, ctx.signal, ctx.progress);
      this.search.schedule();
    });
  }

  private conversionJob: string | null = null;

  /**
   * The watcher reports what changes from now on: runs written, changed or removed while the
   * library was closed are found by one pass over the watched folders (unchanged files cost a
   * stat each). It follows a conversion, which rewrites the runs the pass would compare against.
   */
  private rescanAtOpen(folders: string[]): void {
    const start = () => {
      if (!this.jobs.closing) this.startIndex(folders, 'Updating');
    };
    if (this.conversionJob) void this.converted().then(start, start);
    else start();
  }

  /** Once every run of a library indexed before blocks is converted (or the job ended). */
  async converted(): Promise<void> {
    if (this.conversionJob) await this.jobs.wait(this.conversionJob);
  }

  readonly handlers: Handlers = {
    ...libraryHandlers(this),
    ...workbenchHandlers(this),
    ...exploreHandlers(this),
    ...findingsSyncHandlers(this),
  };

  info(): RequestOutput<'app:info'> {
    return {
      name: 'Pairwise',
      version: this.options.version,
      host: this.options.host,
      dbPath: path.resolve(this.options.dbPath),
      dataDir: this.dataDir,
      canPickFolders: this.options.canPickFolders ?? false,
    };
  }

  samplesDir(): string | undefined {
    return this.options.samplesDir;
  }

  /** Runs, roles or conditions changed: every view refreshes. */
  changed(): void {
    this.events.emit('index:changed', { runs: 0 });
  }

  /** Folders the watcher lost, as problems, until they are added again. */
  watchProblems(): RequestOutput<'library:problems'> {
    return [...this.lostFolders].map(([folder, p]) => ({
      path: folder,
      message: p.message,
      importer: 'watcher',
      at: p.at,
    }));
  }

  watchFolder(folder: string, watch: boolean): void {
    this.lostFolders.delete(folder);
    if (isS3Url(folder)) {
      if (watch) this.poller?.add(folder);
      else this.poller?.remove(folder);
    } else if (watch && fs.statSync(folder).isDirectory()) this.watcher?.add(folder);
  }

  async unwatchFolder(folder: string): Promise<void> {
    this.poller?.remove(folder);
    await this.watcher?.remove(folder);
  }

  /** One poll of a watched bucket, at the endpoint it was added with. */
  private async pollBucket(address: string): Promise<void> {
    const bucket = watchedBuckets(this.db).find((b) => b.path === address);
    if (bucket) await this.jobs.wait(this.startIndex([address], 'Updating', bucket.settings));
  }

  /** Index jobs run one after another: two passes over one folder would race for the same rows. */
  startIndex(paths: string[], verb: string, s3: S3Settings = {}): string {
    const title = `${verb} ${paths.map((p) => path.basename(p)).join(', ')}`;
    return this.jobs.start('index', title, (ctx) => {
      const run = this.indexChain.then(async () => {
        if (ctx.signal.aborted) return;
        const stats = await indexPaths({
          db: this.db,
          pool: this.pool(),
          paths,
          signal: ctx.signal,
          progress: ctx.progress,
          s3,
        });
        this.indexStats.set(ctx.jobId, stats);
        logIndexPass(this.log, paths, stats);
        this.events.emit('index:changed', { runs: stats.runs });
        this.search.schedule();
      });
      this.indexChain = run.catch(() => undefined);
      return run;
    });
  }

  /** Stats of index jobs not yet collected by `index()`; each entry is taken once. */
  private readonly indexStats = new Map<string, IndexStats>();

  async index(paths: string[], s3: S3Settings = {}): Promise<IndexStats> {
    const jobId = this.startIndex(paths, 'Indexing', s3);
    const job = await this.jobs.wait(jobId);
    const stats = this.indexStats.get(jobId);
    this.indexStats.delete(jobId);
    if (job?.state !== 'finished' || !stats)
      throw new Error(job?.error ?? `Indexing ${job?.state ?? 'failed'}.`);
    return stats;
  }

  /** Index workers started and not ended (the pool starts them on demand, or as the library opens). */
  get indexWorkersStarted(): number {
    return this.indexPool?.workers ?? 0;
  }

  private pool(): WorkerPool {
    this.indexPool ??= new WorkerPool(
      workerEntry('index'),
      this.options.indexWorkers ?? Math.max(1, Math.min(4, os.availableParallelism())),
      undefined,
      retiresIndexWorker,
    );
    return this.indexPool;
  }

  /** The watcher lost a folder: say so with the problems and in the log, never silently. */
  private watchFailed(folder: string, error: Error): void {
    const message = `Pairwise can no longer watch this folder for changes (${error.message}); add it again to rescan it.`;
    this.lostFolders.set(folder, { message, at: new Date().toISOString() });
    this.log.error({ folder, err: error }, 'folder watch failed');
    this.changed();
  }

  async close(): Promise<void> {
    this.log.info('library closing');
    // Nothing starts once closing begins: the watcher and poller stop before anything is
    // awaited (a change settling meanwhile would start a pass), and the jobs refuse new ones.
    this.poller?.close();
    const unwatched = this.watcher?.close();
    await this.jobs.shutdown();
    await unwatched;
    await this.indexPool?.close();
    await this.compare.close();
    await this.search.close();
    closeLibrary(this.db);
    await this.closeLog();
  }
}
