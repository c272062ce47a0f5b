import { useEffect } from 'react';
import { StatusBar } from './components/StatusBar';
import { Toasts } from './components/Toasts';
import { LibraryView } from './features/library/LibraryView';
import { ProblemsView } from './features/library/ProblemsView';
import { useApp, type AppState } from './store';
import { startSync } from './sync';

const views: { id: AppState['view']; label: string }[] = [
  { id: 'library', label: 'Library' },
  { id: 'problems', label: 'Problems' },
];

export function App() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const problems = useApp((s) => s.summary?.problems ?? 0);
  useEffect(() => startSync(), []);
  return (
    <div className="app">
      <nav className="sidebar" aria-label="Views">
        <div className="brand">Pairwise</div>
        {views.map((v) => (
          <button
            key={v.id}
            className={view === v.id ? 'nav active' : 'nav'}
            aria-current={view === v.id ? 'page' : undefined}
            onClick={() => setView(v.id)}
          >
            {v.label}
            {v.id === 'problems' && problems > 0 ? <span className="badge">{problems}</span> : null}
          </button>
        ))}
      </nav>
      <main className="content">{view === 'library' ? <LibraryView /> : <ProblemsView />}</main>
      <StatusBar />
      <Toasts />
    </div>
  );
}
