import { request, subscribe } from './api';
import { useApp } from './store';

export async function refreshLibrary(): Promise<void> {
  const [summary, runs, problems] = await Promise.all([
    request('library:summary'),
    request('runs:list', {}),
    request('library:problems'),
  ]);
  useApp.getState().setLibrary({ summary, runs, problems });
}

export async function refreshJobs(): Promise<void> {
  useApp.getState().setJobs(await request('jobs:list'));
}

/** Keeps the store in step with the core: one place that listens to every event. */
export function startSync(): () => void {
  const offs = [
    subscribe('job:progress', ({ jobId, progress }) =>
      useApp.getState().updateJob({ id: jobId, progress }),
    ),
    subscribe('job:finished', ({ job }) => {
      const { toast } = useApp.getState();
      if (job.state === 'failed')
        toast('error', `${job.title} failed: ${job.error ?? 'unknown error'}`);
      else if (job.state === 'finished') toast('info', `${job.title}: done`);
      void refreshJobs();
    }),
    subscribe('jobs:changed', () => void refreshJobs()),
    subscribe('index:changed', () => void refreshLibrary()),
  ];
  void refreshJobs();
  void refreshLibrary();
  return () => offs.forEach((off) => off());
}
