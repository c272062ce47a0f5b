import type { Job } from '../shared/jobs';
import { formatCount } from '../shared/format';
import type { Toast } from './store/ui';

/**
 * What a job that ended says in its toast, or nothing. An index pass ends "finished" even when
 * sources failed (they go to Problems): the toast counts them rather than saying "done" alone.
 */
export function finishedJobToast(job: Job): Pick<Toast, 'kind' | 'text'> | null {
  if (job.state === 'failed')
    return { kind: 'error', text: `${job.title} failed: ${job.error ?? 'unknown error'}` };
  if (job.state !== 'finished' || job.kind !== 'index') return null;
  const failed = job.progress?.failed ?? 0;
  if (failed === 0) return { kind: 'info', text: `${job.title}: done` };
  const sources = `${formatCount(failed)} ${failed === 1 ? 'source' : 'sources'} failed`;
  // Nothing found to import: the addresses themselves could not be read (a bucket that cannot
  // be listed, a folder that is gone).
  if (job.progress?.total === 0)
    return { kind: 'error', text: `${job.title}: nothing indexed — ${sources} (see Problems)` };
  return { kind: 'info', text: `${job.title}: done — ${sources} (see Problems)` };
}
