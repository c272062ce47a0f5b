import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ParsedInput, RequestName, RequestOutput } from '../../shared/contract';
import { closeLibrary, openLibrary, type Db } from './db/open';
import { EventHub } from './events';
import { indexPaths, type IndexStats } from './ingest/indexer';
import { JobManager } from './jobs/manager';
import { WorkerPool } from './jobs/pool';
import { workerEntry } from './jobs/worker-path';
import { librarySummary, listProblems, listRuns } from './library';
import { ComparisonRunner } from './compare/runner';
import { countExamples, exampleDetail, pageExamples } from './compare/pager';
import { NotFoundError } from './errors';
import { examplesCsv, summaryCsv } from './export/csv';
import { folderRemoval, removeFolder } from './folders';
import {
  groupRunsBy,
  lastGrouping,
  previewGrouping,
  settingsFields,
  undoGrouping,
} from './grouping';
import { readReport } from './compare/store';
import {
  listConditions,
  listExperiments,
  setConditionRole,
  setConditionSeries,
  setRepresentative,
  setRunOverride,
} from './experiments';
import { exampleTraces } from './traces';
import { FolderWatcher } from './watcher';
import { openLog, type Logger } from './log';
import { logIndexPass, logJob } from './log-events';
// findings & sync
import { FindingsService } from './findings';
import type { SyncOptions } from './sync/drain';
import { SyncEngine } from './sync/engine';
import { MemorySecretStore, type SecretStore } from './sync/settings';

export interface ServiceOptions {
  dbPath: string;
  /** Where to log; by default a rotating file in `<dataDir>/logs/`. */
  log?: Logger;
  /** Also log debug entries to stderr (the CLI's --verbose). */
  verbose?: boolean;
  dataDir?: string;
  host: 'desktop' | 'browser' | 'cli';
  version: string;
  /** The demo library shipped in resources/samples. */
  samplesDir?: string;
  canPickFolders?: boolean;
  /** Watch added folders for changes (off for one-shot CLI commands). */
  watch?: boolean;
  indexWorkers?: number;
  // findings & sync
  /** Where the sync API key lives: safeStorage on desktop; in memory (and env) for CLI/server. */
  secrets?: SecretStore;
  sync?: Partial<SyncOptions>;
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
  // findings & sync
  readonly findings: FindingsService;
  readonly sync: SyncEngine;
  private indexPool: WorkerPool | null = null;
  private watcher: FolderWatcher | null;
  private indexChain: Promise<unknown> = Promise.resolve();
  readonly log: Logger;
  /** Folders the watcher lost, shown with the library's problems until they are watched again. */
  private readonly watchProblems = new Map<string, { message: string; at: string }>();

  constructor(private readonly options: ServiceOptions) {
    this.dataDir = options.dataDir ?? path.dirname(path.resolve(options.dbPath));
    this.log = options.log ?? openLog({ dataDir: this.dataDir, verbose: options.verbose });
    this.log.info(
      { host: options.host, version: options.version, db: path.resolve(options.dbPath) },
      'library opening',
    );
    try {
      this.db = openLibrary(options.dbPath);
    } catch (error) {
      this.log.error({ err: error }, 'library could not be opened');
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
    });
    this.compare = new ComparisonRunner(
      this.db,
      path.resolve(options.dbPath),
      this.jobs,
      this.events,
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
    'library:problems': () => [
      ...[...this.watchProblems].map(([folder, p]) => ({
        path: folder,
        message: p.message,
        importer: 'watcher',
        at: p.at,
      })),
      ...listProblems(this.db),
    ],
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
      this.watchProblems.delete(resolved);
      if (watch && fs.statSync(resolved).isDirectory()) this.watcher?.add(resolved);
      return { jobId: this.startIndex([resolved], 'Indexing') };
    },
    'library:removeFolder': async ({ path: folder }) => {
      const resolved = path.resolve(expandHome(folder));
      await this.watcher?.remove(resolved);
      // The folder's runs leave the library with it, unless another watched folder provides
      // them too; findings keep their own frozen snapshots.
      const { removed, runs, kept } = removeFolder(this.db, resolved);
      this.events.emit('index:changed', { runs: 0 });
      return { removed, runs, kept };
    },
    'library:folderRemoval': ({ path: folder }) =>
      folderRemoval(this.db, path.resolve(expandHome(folder))),
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
    'examples:count': (input) => countExamples(this.db, input),
    'examples:detail': (input) => exampleDetail(this.db, input),
    // workbench UI
    'runs:groupBy': ({ experimentId, field }) => {
      const conditions = groupRunsBy(this.db, experimentId, field);
      this.events.emit('index:changed', { runs: 0 });
      return { conditions };
    },
    'settings:fields': ({ experimentId }) => settingsFields(this.db, experimentId),
    // actions with a net
    'runs:groupPreview': ({ experimentId, field }) => previewGrouping(this.db, experimentId, field),
    'runs:groupUndo': ({ experimentId }) => {
      const undone = undoGrouping(this.db, experimentId);
      if (undone) this.events.emit('index:changed', { runs: 0 });
      return { undone };
    },
    'examples:trace': (input) => exampleTraces(this.db, input),
    'runs:lastGrouping': ({ experimentId }) => lastGrouping(this.db, experimentId),
    'conditions:setSeries': ({ experimentId, condition, series, level }) => {
      setConditionSeries(this.db, experimentId, condition, series, level);
      this.events.emit('index:changed', { runs: 0 });
      return { ok: true as const };
    },
    'export:examplesCsv': ({ reportKey, pair, filter }) => {
      const { report } = this.report(reportKey);
      const { content, examples } = examplesCsv(this.db, reportKey, report, { pair, filter });
      const which =
        pair === undefined
          ? 'all'
          : (report.comparisons[pair]?.candidate.condition ?? `pair-${pair}`);
      return {
        filename: safeFilename(`${report.experiment.id}-${which}-examples.csv`),
        content,
        rows: examples,
        examples,
      };
    },
    'export:summaryCsv': ({ reportKey }) => {
      const { report } = this.report(reportKey);
      const content = summaryCsv(report);
      return {
        filename: safeFilename(`${report.experiment.id}-summary.csv`),
        content,
        rows: countRows(content),
      };
    },
    // findings & sync
    'findings:list': ({ experimentId }) => this.findings.list(experimentId),
    'findings:create': (settings) => this.findings.create(settings),
    'findings:get': ({ findingId, revision }) => this.findings.get(findingId, revision),
    'findings:save': ({ findingId, body, baseRevision, title }) =>
      this.findings.save(findingId, body, baseRevision, title),
    'findings:revisions': ({ findingId }) => this.findings.revisions(findingId),
    'findings:restore': ({ findingId, revision }) => this.findings.restore(findingId, revision),
    'findings:staleness': ({ findingId }) => this.findings.staleness(findingId),
    'findings:refresh': ({ findingId }) => this.findings.refresh(findingId),
    'findings:export': ({ findingId, format, revision }) =>
      this.findings.export(findingId, format, revision),
    'findings:pin': ({ findingId, ...ref }) => this.findings.pin(findingId, ref),
    'sync:status': ({ limit }) => this.sync.status(limit),
    'sync:configure': (input) => this.sync.configure(input),
    'sync:run': async ({ dryRun, experimentIds }) => ({
      plan: this.sync.plan(experimentIds),
      jobId: dryRun ? null : await this.sync.start(experimentIds),
    }),
    'sync:retryNow': ({ id }) => this.sync.retryNow(id),
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
        this.indexStats.set(ctx.jobId, stats);
        logIndexPass(this.log, paths, stats);
        this.events.emit('index:changed', { runs: stats.runs });
      });
      this.indexChain = run.catch(() => undefined);
      return run;
    });
  }

  /** Stats of index jobs not yet collected by `index()`; each entry is taken once. */
  private readonly indexStats = new Map<string, IndexStats>();

  async index(paths: string[]): Promise<IndexStats> {
    const jobId = this.startIndex(paths, 'Indexing');
    const job = await this.jobs.wait(jobId);
    const stats = this.indexStats.get(jobId);
    this.indexStats.delete(jobId);
    if (job?.state !== 'finished' || !stats)
      throw new Error(job?.error ?? `Indexing ${job?.state ?? 'failed'}.`);
    return stats;
  }

  private report(reportKey: string) {
    const found = readReport(this.db, reportKey);
    if (!found) throw new NotFoundError('That comparison is no longer cached: run it again.');
    return found;
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

  /** The watcher lost a folder: say so with the problems and in the log, never silently. */
  private watchFailed(folder: string, error: Error): void {
    const message = `Pairwise can no longer watch this folder for changes (${error.message}); add it again to rescan it.`;
    this.watchProblems.set(folder, { message, at: new Date().toISOString() });
    this.log.error({ folder, err: error }, 'folder watch failed');
    this.events.emit('index:changed', { runs: 0 });
  }

  async close(): Promise<void> {
    this.log.info('library closing');
    await this.jobs.shutdown();
    await this.watcher?.close();
    await this.indexPool?.close();
    await this.compare.close();
    closeLibrary(this.db);
  }
}

function safeFilename(name: string): string {
  return name.replace(/[^\w.@-]+/g, '_');
}

/** Data rows of a CSV (quoted newlines inside cells are not row breaks). */
function countRows(csv: string): number {
  let rows = 0;
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) rows++;
  }
  return Math.max(0, rows - 1);
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}
