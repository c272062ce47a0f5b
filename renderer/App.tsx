import {
  createElement,
  lazy,
  Suspense,
  useDeferredValue,
  useEffect,
  useState,
  type ComponentType,
} from 'react';
import { isDesktop, pickFolder, request } from './api';
import { ReadOnlyNotice } from './components/ReadOnlyNotice';
import { StatusBar } from './components/StatusBar';
import { useOverflowTitles } from './components/useOverflowTitles';
import { Toasts } from './components/Toasts';
import { LibraryView } from './features/library/LibraryView';
import { ProblemsView } from './features/library/ProblemsView';
import { useApp, type AppState } from './store';
import { startSync } from './sync';

/**
 * A view that loads as a chunk of its own. Once its chunk is in, it renders straight away: a
 * React.lazy component would suspend on its first render even then, and React holds a revealed
 * Suspense boundary back for a few hundred milliseconds.
 */
function lazyView<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = pick(module);
      return loaded;
    }));
  const Pending = lazy(() => preload().then((component) => ({ default: component })));
  // Fixed for the life of the mount: switching from Pending to the loaded component would
  // remount the view and lose its state.
  const View = () => {
    const [component] = useState(() => loaded ?? Pending);
    return createElement(component);
  };
  return { View, preload };
}

/**
 * Views other than the library load as chunks of their own: the app's first task evaluates the
 * library view alone, and each view's code (charts, diff, grid) is evaluated in a task of its own.
 */
const Conditions = lazyView(
  () => import('./features/conditions/ConditionsView'),
  (m) => m.ConditionsView,
);
const Comparison = lazyView(
  () => import('./features/comparison/ComparisonView'),
  (m) => m.ComparisonView,
);
const Examples = lazyView(
  () => import('./features/examples/ExamplesView'),
  (m) => m.ExamplesView,
);
const Findings = lazyView(
  () => import('./features/findings/FindingsView'),
  (m) => m.FindingsView,
);
const Sync = lazyView(
  () => import('./features/sync/SyncView'),
  (m) => m.SyncView,
);

/** Once the app is idle, fetch the other views one at a time, so opening one does not wait. */
function usePrefetchViews() {
  useEffect(() => {
    let cancelled = false;
    const idle = (next: () => void) =>
      'requestIdleCallback' in window ? requestIdleCallback(next) : setTimeout(next, 200);
    const queue = [Comparison, Examples, Conditions, Findings, Sync];
    const step = () => {
      const view = queue.shift();
      if (cancelled || !view) return;
      void view.preload().then(() => idle(step));
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
      return <Conditions.View />;
    case 'comparison':
      return <Comparison.View />;
    case 'examples':
      return <Examples.View />;
    case 'findings':
      return <Findings.View />;
    case 'sync':
      return <Sync.View />;
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
  // The view switched to renders in the background, in slices: the click's own task only marks
  // the nav button, and a view's first render is never one long task.
  const shownView = useDeferredValue(view);
  const setView = useApp((s) => s.setView);
  const problems = useApp((s) => s.summary?.problems ?? 0);
  const experimentId = useApp((s) => s.experimentId);
  useEffect(() => startSync(), []);
  useGlobalShortcuts();
  usePrefetchViews();
  useOverflowTitles();
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
        <ReadOnlyNotice />
      </nav>
      <main className="content">
        <Suspense
          fallback={
            <p className="muted pad" role="status">
              Loading…
            </p>
          }
        >
          <View view={shownView} />
        </Suspense>
      </main>
      <StatusBar />
      <Toasts />
    </div>
  );
}
