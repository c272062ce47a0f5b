import type { Job } from '../../shared/jobs';
import type { IndexStats } from './ingest/indexer';
import type { Logger } from './log';

/** Every job's end, with how long it took; a failure with its message. */
export function logJob(log: Logger, job: Job): void {
  const seconds = job.finishedAt
    ? (Date.parse(job.finishedAt) - Date.parse(job.createdAt)) / 1000
    : null;
  const entry = { job: job.id, kind: job.kind, title: job.title, state: job.state, seconds };
  if (job.state === 'failed') log.error({ ...entry, error: job.error }, 'job failed');
  else log.info(entry, `job ${job.state}`);
}

/** An index pass: its counts, and each source that is failed after it. */
export function logIndexPass(log: Logger, paths: string[], stats: IndexStats): void {
  log.info(
    { paths, sources: stats.sources, runs: stats.runs, examples: stats.examples },
    'index pass',
  );
  for (const problem of stats.problems)
    log.warn({ path: problem.path, problem: problem.message }, 'source failed');
}
