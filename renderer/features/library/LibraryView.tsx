import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { counted } from '../../format';
import { useApp } from '../../store';
import type { LibrarySummary } from '../../store/library';
import { AddFolder } from './AddFolder';
import { CompareTwoRuns } from './CompareTwoRuns';
import { ExperimentCard } from './ExperimentCard';
import { firstCards, groupRuns, matchesSearch, treeRows } from './libraryTree';
import { RemoveFolder } from './RemoveFolder';
import { useGrowingCount } from './useGrowingCount';
import { DropZone } from './DropZone';
import { useRequest } from '../../useRequest';
import { useReadOnly } from '../../useReadOnly';

function FirstRun() {
  const ask = useRequest();
  const { locked } = useReadOnly();
  return (
    <DropZone>
      <section className="empty-state">
        <h2>No runs yet</h2>
        <p>
          Add a folder of run files — MechLens records, REPS run folders, Inspect logs,
          lm-evaluation-harness results, promptfoo outputs, or plain JSONL/CSV — or drop files here.
          Pairwise indexes them and keeps the index in step with the disk.
        </p>
        <AddFolder />
        <p>
          <button className="secondary" {...locked} onClick={() => ask('library:openSample', {})}>
            Open the sample experiment
          </button>
        </p>
      </section>
    </DropZone>
  );
}

/** The folders Pairwise indexes (and watches), most useful as "recent folders" to rescan. */
function Folders() {
  const ask = useRequest();
  const { locked } = useReadOnly();
  const folders = useApp((s) => s.summary?.folders ?? []);
  if (folders.length === 0) return null;
  return (
    <section className="folders" aria-label="Folders">
      {folders.map((f) => (
        <span
          key={f.path}
          className="folder-chip"
          title={f.watched ? 'Watched: changes are indexed as they happen' : 'Not watched'}
        >
          <span className="mono">{f.path}</span>
          {f.watched ? <span className="muted small">watched</span> : null}
          <button
            className="link"
            {...locked}
            onClick={() => ask('library:addFolder', { path: f.path, watch: f.watched })}
          >
            Rescan
          </button>
          <RemoveFolder path={f.path} />
        </span>
      ))}
    </section>
  );
}

function LibraryToolbar({
  summary,
  search,
  onSearch,
  onCompareTwoRuns,
}: {
  summary: LibrarySummary;
  search: string;
  onSearch(search: string): void;
  onCompareTwoRuns(): void;
}) {
  return (
    <header className="toolbar">
      <h2>Library</h2>
      <span className="muted">
        {counted(summary.projects, 'project')} · {counted(summary.experiments, 'experiment')} ·{' '}
        {counted(summary.runs, 'run')} · {counted(summary.examples, 'example')}
      </span>
      <span className="spacer" />
      <input
        type="search"
        className="search"
        aria-label="Search runs"
        placeholder="Search projects, experiments, runs…"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
      />
      <button className="secondary nowrap" onClick={onCompareTwoRuns}>
        Compare two runs
      </button>
      <AddFolder />
    </header>
  );
}

export function LibraryView() {
  const summary = useApp((s) => s.summary);
  const runs = useApp((s) => s.runs);
  const experiments = useApp((s) => s.experiments);
  const selectExperiment = useApp((s) => s.selectExperiment);
  const setView = useApp((s) => s.setView);
  const [search, setSearch] = useState('');
  // The cards follow the search in a render React can interrupt, so each key typed shows at
  // once: with 159 experiments, filtering and rendering the cards in the key's own task took
  // 84–105 ms a key.
  const shownSearch = useDeferredValue(search);
  const [picking, setPicking] = useState(false);
  const tree = useMemo(
    () => groupRuns(runs.filter((r) => matchesSearch(r, shownSearch))),
    [runs, shownSearch],
  );
  const metaById = useMemo(() => new Map(experiments.map((e) => [e.id, e])), [experiments]);
  const rows = useMemo(() => treeRows(tree), [tree]);
  const shownRows = useGrowingCount(rows, shownSearch);
  const open = useCallback(
    (id: string) => {
      selectExperiment(id);
      setView('comparison');
    },
    [selectExperiment, setView],
  );
  if (!summary) return <p className="muted pad">Loading the library…</p>;
  if (summary.runs === 0) return <FirstRun />;
  return (
    <DropZone>
      <section className="library">
        <LibraryToolbar
          summary={summary}
          search={search}
          onSearch={setSearch}
          onCompareTwoRuns={() => setPicking(!picking)}
        />
        {picking ? <CompareTwoRuns onClose={() => setPicking(false)} /> : null}
        <Folders />
        {firstCards(tree, shownRows).map(([project, groups]) => (
          <section key={project} className="project">
            <h3 className="project-name">{project}</h3>
            {groups.map((experiment) => (
              <ExperimentCard
                key={experiment.id}
                experiment={experiment}
                meta={metaById.get(experiment.id)}
                onOpen={open}
              />
            ))}
          </section>
        ))}
      </section>
    </DropZone>
  );
}
