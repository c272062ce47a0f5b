import { randomUUID } from 'node:crypto';
import type { Job, JobKind, JobProgress } from '../../../shared/jobs';
import { describeDbError } from '../db/errors';
import type { Db } from '../db/open';
import { ConflictError } from '../errors';
import { JobJournal } from './journal';
import { ProgressThrottle } from './progress';
import { isCancelled } from './protocol';

export interface JobContext {
  jobId: string;
  signal: AbortSignal;
  progress(progress: JobProgress): void;
}

export interface JobEvents {
  /** A client that lists jobs must hear of a new one, or its progress has nothing to update. */
  started(job: Job): void;
  progress(jobId: string, progress: JobProgress): void;
  finished(job: Job): void;
  /** A job's row could not be written (other than for the lock): the job itself went on. */
  unrecorded?(error: unknown): void;
}

interface Live {
  job: Job;
  controller: AbortController;
  throttle: ProgressThrottle;
  done: Promise<void>;
}

interface JobRow {
  id: string;
  kind: string;
  title: string;
  state: string;
  created_at: string;
  finished_at: string | null;
  error: string | null;
  progress: string | null;
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind as Job['kind'],
    title: row.title,
    state: row.state as Job['state'],
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    error: row.error,
    progress: row.progress ? (JSON.parse(row.progress) as JobProgress) : null,
  };
}

/**
 * Every long task is a job with an id, throttled progress and a cancel. Jobs are recorded in
 * the database so a crash leaves a trace: on start, any job still "running" is marked
 * "interrupted".
 */
export class JobManager {
  private live = new Map<string, Live>();
  /** Jobs ended whose row does not say so yet (the journal's write is queued). */
  private ended = new Map<string, Job>();
  private readonly journal: JobJournal;
  private shuttingDown = false;

  constructor(
    private readonly db: Db,
    private readonly events: JobEvents,
  ) {
    this.journal = new JobJournal(db, (error) => events.unrecorded?.(error));
    db.prepare(
      `UPDATE jobs SET state = 'interrupted', finished_at = ?, error = 'Pairwise stopped while this job was running.' WHERE state = 'running'`,
    ).run(new Date().toISOString());
  }

  start(kind: JobKind, title: string, work: (ctx: JobContext) => Promise<void>): string {
    // A job started now would outlive the shutdown: it would run on a closed database, in
    // workers started after their pools were closed.
    if (this.shuttingDown) throw new ConflictError('Pairwise is closing: no new job can start.');
    const id = randomUUID();
    const job: Job = {
      id,
      kind,
      title,
      state: 'running',
      createdAt: new Date().toISOString(),
      finishedAt: null,
      progress: null,
      error: null,
    };
    this.journal.record(() =>
      this.db
        .prepare(
          `INSERT INTO jobs (id, kind, title, state, created_at) VALUES (?, ?, ?, 'running', ?)`,
        )
        .run(id, kind, title, job.createdAt),
    );
    const controller = new AbortController();
    const throttle = new ProgressThrottle((progress) => {
      job.progress = progress;
      this.events.progress(id, progress);
    });
    const entry: Live = { job, controller, throttle, done: Promise.resolve() };
    this.live.set(id, entry);
    this.events.started({ ...job });
    entry.done = (async () => {
      try {
        await work({ jobId: id, signal: controller.signal, progress: (p) => throttle.push(p) });
        if (controller.signal.aborted) this.finish(entry, 'cancelled', null);
        else this.finish(entry, 'finished', null);
      } catch (error) {
        if (controller.signal.aborted || isCancelled(error)) this.finish(entry, 'cancelled', null);
        else
          this.finish(
            entry,
            'failed',
            describeDbError(error, this.db.name) ??
              (error instanceof Error ? error.message : String(error)),
          );
      }
    })();
    return id;
  }

  /** Whether a job of this kind is running now. */
  running(kind: JobKind): boolean {
    for (const entry of this.live.values()) if (entry.job.kind === kind) return true;
    return false;
  }

  cancel(jobId: string): boolean {
    const entry = this.live.get(jobId);
    if (!entry) return false;
    entry.controller.abort();
    return true;
  }

  /** Resolves when the job has ended (whatever its outcome). */
  async wait(jobId: string): Promise<Job | null> {
    const entry = this.live.get(jobId);
    if (!entry) return this.get(jobId);
    await entry.done;
    // What it ended as, without reading it back: the connection may be gone (a crash).
    return { ...entry.job };
  }

  get(jobId: string): Job | null {
    const known = this.live.get(jobId)?.job ?? this.ended.get(jobId);
    if (known) return { ...known };
    const row = this.db.prepare(`SELECT * FROM jobs WHERE id = ?`).get(jobId) as JobRow | undefined;
    return row ? toJob(row) : null;
  }

  list(limit = 50): Job[] {
    const rows = this.db
      .prepare(`SELECT * FROM jobs ORDER BY created_at DESC LIMIT ?`)
      .all(limit) as JobRow[];
    const jobs = new Map(rows.map((row) => [row.id, toJob(row)]));
    // What memory knows is newer than the rows, and may have no row yet.
    for (const job of [...this.ended.values(), ...[...this.live.values()].map((l) => l.job)])
      jobs.set(job.id, { ...job });
    return [...jobs.values()]
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      .slice(0, limit);
  }

  /** Whether `shutdown()` has begun: no job starts any more. */
  get closing(): boolean {
    return this.shuttingDown;
  }

  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const entry of this.live.values()) entry.controller.abort();
    await Promise.all([...this.live.values()].map((entry) => entry.done));
    await this.journal.flushed();
  }

  private finish(entry: Live, state: Job['state'], error: string | null): void {
    entry.throttle.flush();
    entry.throttle.dispose();
    entry.job.state = state;
    entry.job.error = error;
    entry.job.finishedAt = new Date().toISOString();
    const { id, finishedAt, progress } = entry.job;
    this.ended.set(id, entry.job);
    this.journal.record(
      () =>
        this.db
          .prepare(
            `UPDATE jobs SET state = ?, error = ?, finished_at = ?, progress = ? WHERE id = ?`,
          )
          .run(state, error, finishedAt, JSON.stringify(progress), id),
      () => this.ended.delete(id),
    );
    this.live.delete(id);
    this.events.finished({ ...entry.job });
  }
}
