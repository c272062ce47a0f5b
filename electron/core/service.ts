import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ParsedInput, RequestName, RequestOutput } from '../../shared/contract';
import { openDatabase, type Db } from './db/open';
import { EventHub } from './events';
import { indexPaths, type IndexStats } from './ingest/indexer';
import { JobManager } from './jobs/manager';
import { WorkerPool } from './jobs/pool';
import { workerEntry } from './jobs/worker-path';
import { librarySummary, listProblems, listRuns } from './library';
import { ComparisonRunner } from './compare/runner';
import { exampleDetail, pageExamples } from './compare/pager';
import { NotFoundError } from './errors';
import {
  listConditions,
  listExperiments,
  setConditionRole,
  setRepresentative,
  setRunOverride,
} from './experiments';
import { FolderWatcher } from './watcher';

export interface ServiceOptions {
  dbPath: string;
  dataDir?: string;
  host: 'desktop' | 'browser' | 'cli';
  version: string;
  /** The demo library shipped in resources/samples. */
  samplesDir?: string;
  canPickFolders?: boolean;
  /** Watch added folders for changes (off for one-shot CLI commands). */
  watch?: boolean;
  indexWorkers?: number;
}

type Handlers = {
  [N in RequestName]: (input: ParsedInput<N>) => Promise<RequestOutput<N>> | RequestOutput<N>;
};

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
  private indexPool: WorkerPool | null = null;
  private watcher: FolderWatcher | null;
  private indexChain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ServiceOptions) {
    this.db = openDatabase(options.dbPath);
    this.dataDir = options.dataDir ?? path.dirname(path.resolve(options.dbPath));
    this.jobs = new JobManager(this.db, {
      progress: (jobId, progress) => this.events.emit('job:progress', { jobId, progress }),
      finished: (job) => {
        this.events.emit('job:finished', { job });
        this.events.emit('jobs:changed', {});
      },
    });
    this.compare = new ComparisonRunner(
      this.db,
      path.resolve(options.dbPath),
      this.jobs,
      this.events,
    );
    this.watcher = options.watch
      ? new FolderWatcher((folder) => this.startIndex([folder], 'Updating'))
      : null;
    if (this.watcher) {
      for (const folder of this.watchedFolders()) this.watcher.add(folder);
    }
  }

  readonly handlers: Handlers = {
    'app:info': () => ({
      name: 'Pairwise',
      version: this.options.version,
      host: this.options.host,
      dbPath: path.resolve(this.options.dbPath),
      dataDir: this.dataDir,
      canPickFolders: this.options.canPickFolders ?? false,
    }),
    'library:summary': () => librarySummary(this.db),
    'library:problems': () => listProblems(this.db),
    'library:addFolder': ({ path: folder, watch }) => {
      const resolved = path.resolve(expandHome(folder));
      if (!fs.existsSync(resolved))
        throw new NotFoundError(`There is no file or folder at ${resolved}.`);
      this.db
        .prepare(
          `INSERT INTO folders (path, watched, added_at) VALUES (?, ?, ?)
           ON CONFLICT(path) DO UPDATE SET watched = excluded.watched`,
        )
        .run(resolved, watch ? 1 : 0, new Date().toISOString());
      if (watch && fs.statSync(resolved).isDirectory()) this.watcher?.add(resolved);
      return { jobId: this.startIndex([resolved], 'Indexing') };
    },
    'library:removeFolder': async ({ path: folder }) => {
      const resolved = path.resolve(expandHome(folder));
      await this.watcher?.remove(resolved);
      const info = this.db.prepare(`DELETE FROM folders WHERE path = ?`).run(resolved);
      return { removed: info.changes > 0 };
    },
    'library:openSample': () => {
      const dir = this.options.samplesDir;
      if (!dir || !fs.existsSync(dir))
        throw new NotFoundError('The sample library is not part of this build.');
      return { jobId: this.startIndex([dir], 'Opening the sample experiment') };
    },
    'runs:list': ({ experimentId }) => listRuns(this.db, experimentId),
    'experiments:list': () => listExperiments(this.db),
    'conditions:list': ({ experimentId }) => listConditions(this.db, experimentId),
    'conditions:setRole': ({ experimentId, condition, role }) => {
      setConditionRole(this.db, experimentId, condition, role);
      this.events.emit('index:changed', { runs: 0 });
      return { ok: true as const };
    },
    'conditions:setRepresentative': ({ experimentId, condition, runId }) => {
      setRepresentative(this.db, experimentId, condition, runId);
      this.events.emit('index:changed', { runs: 0 });
      return { ok: true as const };
    },
    'runs:setOverride': ({ runId, role, condition }) => {
      setRunOverride(this.db, runId, { role, condition });
      this.events.emit('index:changed', { runs: 0 });
      return { ok: true as const };
    },
    'compare:start': (settings) => ({ jobId: this.compare.start(settings).jobId }),
    'compare:report': (settings) => this.compare.cached(settings),
    'examples:page': (input) => pageExamples(this.db, input),
    'examples:detail': (input) => exampleDetail(this.db, input),
    'jobs:list': () => this.jobs.list(),
    'jobs:cancel': ({ jobId }) => ({ cancelled: this.jobs.cancel(jobId) }),
  };

  /** Index jobs run one after another: two passes over one folder would race for the same rows. */
  startIndex(paths: string[], verb: string): string {
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
        });
        this.lastIndexStats.set(ctx.jobId, stats);
        this.events.emit('index:changed', { runs: stats.runs });
      });
      this.indexChain = run.catch(() => undefined);
      return run;
    });
  }

  readonly lastIndexStats = new Map<string, IndexStats>();

  async index(paths: string[]): Promise<IndexStats> {
    const jobId = this.startIndex(paths, 'Indexing');
    const job = await this.jobs.wait(jobId);
    if (job?.state !== 'finished')
      throw new Error(job?.error ?? `Indexing ${job?.state ?? 'failed'}.`);
    return this.lastIndexStats.get(jobId)!;
  }

  private pool(): WorkerPool {
    this.indexPool ??= new WorkerPool(
      workerEntry('index'),
      this.options.indexWorkers ?? Math.max(1, Math.min(4, os.availableParallelism())),
    );
    return this.indexPool;
  }

  private watchedFolders(): string[] {
    return (
      this.db.prepare(`SELECT path FROM folders WHERE watched = 1`).all() as { path: string }[]
    )
      .map((r) => r.path)
      .filter((p) => fs.existsSync(p) && fs.statSync(p).isDirectory());
  }

  async close(): Promise<void> {
    await this.jobs.shutdown();
    await this.watcher?.close();
    await this.indexPool?.close();
    await this.compare.close();
    this.db.close();
  }
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}
