import { startExperiment } from '../shared/start-experiment';
import { HELD, request, requestUnlessHeld, subscribe } from './api';
import { finishedJobToast } from './jobToast';
import { useApp } from './store';
import type { LoadedReport } from './store/workbench';
import { readOnlySession } from './useReadOnly';

export async function refreshLibrary(): Promise<void> {
  const [summary, runs, problems, experiments] = await Promise.all([
    request('library:summary'),
    request('runs:list', {}),
    request('library:problems'),
    request('experiments:list'),
  ]);
  const state = useApp.getState();
  state.setLibrary({ summary, runs, problems });
  state.setExperiments(experiments);
  const start = startExperiment(experiments);
  if (!state.experimentId && start) state.selectExperiment(start.id);
  await refreshExperiment();
}

export async function refreshJobs(): Promise<void> {
  useApp.getState().setJobs(await request('jobs:list'));
}

let experimentRefresh = 0;

/**
 * Conditions and, if one is cached for the current runs, the comparison report. Only the
 * latest refresh may write: an older answer arriving late would put back a stale report.
 */
export async function refreshExperiment(): Promise<void> {
  const { experimentId, runPair } = useApp.getState();
  if (!experimentId) return;
  const mine = ++experimentRefresh;
  const held = useApp.getState().report;
  const [conditions, report] = await Promise.all([
    runPair ? Promise.resolve([]) : request('conditions:list', { experimentId }),
    requestUnlessHeld('compare:report', runPair ?? { experimentId }, held && reportHead(held)),
  ]);
  if (mine !== experimentRefresh || useApp.getState().experimentId !== experimentId) return;
  useApp.getState().setConditions(conditions);
  // The same object again: no view that reads it renders.
  useApp.getState().setReport(report === HELD ? held : report);
}

/**
 * How the server's JSON of a stored report begins: its key names the runs and settings
 * compared, and its time the computation, so a reply that begins so is the report held.
 */
export function reportHead(held: LoadedReport): string {
  return `{"ok":true,"value":${JSON.stringify({ key: held.key, createdAt: held.createdAt }).slice(0, -1)},"report":`;
}

/**
 * Experiments with a comparison asked for and not yet answered. Module state, not store state:
 * a cached comparison can finish before the request that started it returns.
 */
const requested = new Set<string>();

/** Starts a comparison unless the cached one is current; the report arrives by event. */
export async function ensureComparison(): Promise<void> {
  const { experimentId, runPair, report } = useApp.getState();
  if (!experimentId || report || requested.has(experimentId)) return;
  requested.add(experimentId);
  try {
    // A read-only session may not start one: it sees what an editor compared.
    if (await readOnlySession()) {
      requested.delete(experimentId);
      return;
    }
    await request('compare:start', runPair ?? { experimentId });
  } catch (error) {
    requested.delete(experimentId);
    throw error;
  }
}

/**
 * A comparison that finished while runs were still being indexed is for a set of runs that is
 * already gone: the cache has no report for the current runs, and the view that asked for one
 * (it asks when its report changes) would wait forever. Ask again for the current runs.
 */
async function refreshAfterReady(experimentId: string): Promise<void> {
  await refreshExperiment();
  const state = useApp.getState();
  if (state.experimentId === experimentId && !state.report)
    await ensureComparison().catch((e: Error) => state.toast('error', e.message));
}

/** Keeps the store in step with the core: one place that listens to every event. */
export function startSync(): () => void {
  const offs = [
    subscribe('job:progress', ({ jobId, progress }) =>
      useApp.getState().updateJob({ id: jobId, progress }),
    ),
    subscribe('job:finished', ({ job }) => {
      const said = finishedJobToast(job);
      if (said) useApp.getState().toast(said.kind, said.text);
      if (job.kind === 'compare') requested.clear();
      void refreshJobs();
    }),
    subscribe('jobs:changed', () => void refreshJobs()),
    subscribe('index:changed', () => void refreshLibrary()),
    subscribe('compare:ready', ({ experimentId }) => {
      requested.delete(experimentId);
      if (experimentId === useApp.getState().experimentId) void refreshAfterReady(experimentId);
    }),
  ];
  void refreshJobs();
  void refreshLibrary();
  return () => offs.forEach((off) => off());
}
