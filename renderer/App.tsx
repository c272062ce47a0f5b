import { lazy, Suspense, useEffect } from 'react';
import { isDesktop, pickFolder, request } from './api';
import { StatusBar } from './components/StatusBar';
import { Toasts } from './components/Toasts';
import { LibraryView } from './features/library/LibraryView';
import { ProblemsView } from './features/library/ProblemsView';
import { useApp, type AppState } from './store';
import { startSync } from './sync';

/**
 * Views other than the library load as chunks of their own: the app's first task evaluates the
 * library view alone, and each view's code (charts, diff, grid) is evaluated in a task of its own.
 */
const loaders = {
  conditions: () => import('./features/conditions/ConditionsView'),
  comparison: () => import('./features/comparison/ComparisonView'),
  examples: () => import('./features/examples/ExamplesView'),
  findings: () => import('./features/findings/FindingsView'),
  sync: () => import('./features/sync/SyncView'),
};
const ConditionsView = lazy(() =>
  loaders.conditions().then((m) => ({ default: m.ConditionsView })),
);
const ComparisonView = lazy(() =>
  loaders.comparison().then((m) => ({ default: m.ComparisonView })),
);
const ExamplesView = lazy(() => loaders.examples().then((m) => ({ default: m.ExamplesView })));
const FindingsView = lazy(() => loaders.findings().then((m) => ({ default: m.FindingsView })));
const SyncView = lazy(() => loaders.sync().then((m) => ({ default: m.SyncView })));

/** Once the app is idle, fetch the other views one at a time, so opening one does not wait. */
function usePrefetchViews() {
  useEffect(() => {
    let cancelled = false;
    const idle = (next: () => void) =>
      'requestIdleCallback' in window ? requestIdleCallback(next) : setTimeout(next, 200);
    const queue = Object.values(loaders);
    const step = () => {
      const load = queue.shift();
      if (cancelled || !load) return;
      void load().then(() => idle(step));
    };
    idle(step);
    return () => {
      cancelled = true;
    };
  }, []);
}

const views: { id: AppState['view']; label: string; needsExperiment?: boolean }[] = [
  { id: 'library', label: 'Library' },
  { id: 'conditions', label: 'Conditions', needsExperiment: true },
  { id: 'comparison', label: 'Comparison', needsExperiment: true },
  { id: 'examples', label: 'Examples', needsExperiment: true },
  { id: 'findings', label: 'Findings', needsExperiment: true },
  { id: 'sync', label: 'Sync' },
  { id: 'problems', label: 'Problems' },
];

function View({ view }: { view: AppState['view'] }) {
  switch (view) {
    case 'library':
      return <LibraryView />;
    case 'conditions':
      return <ConditionsView />;
    case 'comparison':
      return <ComparisonView />;
    case 'examples':
      return <ExamplesView />;
    case 'findings':
      return <FindingsView />;
    case 'sync':
      return <SyncView />;
    case 'problems':
      return <ProblemsView />;
  }
}

/** Cmd/Ctrl+O adds a folder wherever you are (the examples view owns Ctrl+F and Ctrl+E). */
function useGlobalShortcuts() {
  const setView = useApp((s) => s.setView);
  const toast = useApp((s) => s.toast);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'o') return;
      event.preventDefault();
      if (isDesktop) {
        void pickFolder().then((folder) =>
          folder
            ? request('library:addFolder', { path: folder, watch: true }).catch((e: Error) =>
                toast('error', e.message),
              )
            : null,
        );
      } else {
        setView('library');
        setTimeout(
          () =>
            document.querySelector<HTMLInputElement>('input[aria-label="Folder path"]')?.focus(),
          0,
        );
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setView, toast]);
}

export function App() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const problems = useApp((s) => s.summary?.problems ?? 0);
  const experimentId = useApp((s) => s.experimentId);
  useEffect(() => startSync(), []);
  useGlobalShortcuts();
  usePrefetchViews();
  return (
    <div className="app">
      <nav className="sidebar" aria-label="Views">
        <div className="brand">
          <img src="./icon.svg" alt="" width={18} height={18} />
          Pairwise
        </div>
        {views.map((v) => (
          <button
            key={v.id}
            className={view === v.id ? 'nav active' : 'nav'}
            aria-current={view === v.id ? 'page' : undefined}
            disabled={v.needsExperiment && !experimentId}
            onClick={() => setView(v.id)}
          >
            {v.label}
            {v.id === 'problems' && problems > 0 ? <span className="badge">{problems}</span> : null}
          </button>
        ))}
      </nav>
      <main className="content">
        <Suspense
          fallback={
            <p className="muted pad" role="status">
              Loading…
            </p>
          }
        >
          <View view={view} />
        </Suspense>
      </main>
      <StatusBar />
      <Toasts />
    </div>
  );
}
