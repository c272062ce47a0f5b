import { counted } from '../format';
import { useApp } from '../store';
import { useRequest } from '../useRequest';
import { useReadOnly } from '../useReadOnly';
import { jobLine } from './jobLine';

export function StatusBar() {
  const ask = useRequest();
  const { locked } = useReadOnly();
  const jobs = useApp((s) => s.jobs);
  const summary = useApp((s) => s.summary);
  const running = jobs.filter((j) => j.state === 'running');
  return (
    <footer className="status-bar" role="status" aria-live="polite">
      {running.length === 0 ? (
        <span className="muted">
          {summary
            ? `${counted(summary.runs, 'run')} · ${counted(summary.examples, 'example')} · ${counted(summary.problems, 'problem')}`
            : 'Loading…'}
        </span>
      ) : (
        running.map((job) => (
          <span key={job.id} className="job" data-testid="job-progress">
            <span className="spinner" aria-hidden />
            {jobLine(job)}
            {job.progress?.detail ? (
              <span className="muted job-detail"> {job.progress.detail}</span>
            ) : null}
            <button
              className="link"
              {...locked}
              onClick={() => ask('jobs:cancel', { jobId: job.id })}
            >
              Cancel
            </button>
          </span>
        ))
      )}
    </footer>
  );
}
