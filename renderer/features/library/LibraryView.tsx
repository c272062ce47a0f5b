import { useMemo, useState } from 'react';
import { request } from '../../api';
import { count } from '../../format';
import { useApp } from '../../store';
import type { RunRow } from '../../store/library';
import { AddFolder } from './AddFolder';
import { CompareTwoRuns } from './CompareTwoRuns';
import { RemoveFolder } from './RemoveFolder';
import { DropZone } from './DropZone';

function FirstRun() {
  const toast = useApp((s) => s.toast);
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
          <button
            className="secondary"
            onClick={() =>
              request('library:openSample').catch((e: Error) => toast('error', e.message))
            }
          >
            Open the sample experiment
          </button>
        </p>
      </section>
    </DropZone>
  );
}

/** The effective role: the experiment's one reference (declared, chosen or guessed). */
function RoleTag({ role }: { role: string }) {
  return <span className={`role role-${role}`}>{role}</span>;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function runState(run: RunRow): string {
  if (run.missing) return 'missing';
  if (run.superseded) return 'superseded';
  return run.state === 'completed'
    ? 'complete'
    : run.state === 'interrupted' || run.state === 'running'
      ? 'incomplete'
      : run.state;
}

interface ExperimentGroup {
  id: string;
  project: string;
  conditions: Map<string, RunRow[]>;
  runs: RunRow[];
}

function group(runs: RunRow[]): Map<string, ExperimentGroup[]> {
  const projects = new Map<string, Map<string, ExperimentGroup>>();
  for (const run of runs) {
    const experiments = projects.get(run.project) ?? new Map<string, ExperimentGroup>();
    const experiment: ExperimentGroup = experiments.get(run.experiment_id) ?? {
      id: run.experiment_id,
      project: run.project,
      conditions: new Map<string, RunRow[]>(),
      runs: [],
    };
    experiment.runs.push(run);
    experiment.conditions.set(run.condition, [
      ...(experiment.conditions.get(run.condition) ?? []),
      run,
    ]);
    experiments.set(run.experiment_id, experiment);
    projects.set(run.project, experiments);
  }
  return new Map([...projects.entries()].map(([p, e]) => [p, [...e.values()]]));
}

function matches(run: RunRow, needle: string): boolean {
  if (!needle) return true;
  const hay = `${run.project} ${run.experiment_id} ${run.condition} ${run.run_id} ${run.format} ${run.path ?? ''}`;
  return hay.toLowerCase().includes(needle.toLowerCase());
}

/** The folders Pairwise indexes (and watches), most useful as "recent folders" to rescan. */
function Folders() {
  const folders = useApp((s) => s.summary?.folders ?? []);
  const toast = useApp((s) => s.toast);
  if (folders.length === 0) return null;
  const act = (promise: Promise<unknown>) => promise.catch((e: Error) => toast('error', e.message));
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
            onClick={() =>
              void act(request('library:addFolder', { path: f.path, watch: f.watched }))
            }
          >
            Rescan
          </button>
          <RemoveFolder path={f.path} />
        </span>
      ))}
    </section>
  );
}

export function LibraryView() {
  const summary = useApp((s) => s.summary);
  const runs = useApp((s) => s.runs);
  const experiments = useApp((s) => s.experiments);
  const selectExperiment = useApp((s) => s.selectExperiment);
  const setView = useApp((s) => s.setView);
  const [search, setSearch] = useState('');
  const [picking, setPicking] = useState(false);
  const tree = useMemo(() => group(runs.filter((r) => matches(r, search))), [runs, search]);
  if (!summary) return <p className="muted pad">Loading the library…</p>;
  if (summary.runs === 0) return <FirstRun />;
  const open = (id: string) => {
    selectExperiment(id);
    setView('comparison');
  };
  return (
    <DropZone>
      <section className="library">
        <header className="toolbar">
          <h2>Library</h2>
          <span className="muted">
            {summary.projects} projects · {summary.experiments} experiments · {count(summary.runs)}{' '}
            runs · {count(summary.examples)} examples
          </span>
          <span className="spacer" />
          <input
            type="search"
            className="search"
            aria-label="Search runs"
            placeholder="Search projects, experiments, conditions, runs…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <button className="secondary nowrap" onClick={() => setPicking(!picking)}>
            Compare two runs
          </button>
          <AddFolder />
        </header>
        {picking ? <CompareTwoRuns onClose={() => setPicking(false)} /> : null}
        <Folders />
        {[...tree.entries()].map(([project, groups]) => (
          <section key={project} className="project">
            <h3 className="project-name">{project}</h3>
            {groups.map((experiment) => {
              const meta = experiments.find((e) => e.id === experiment.id);
              return (
                <article key={experiment.id} className="experiment-card">
                  <header className="experiment-head">
                    <button className="link experiment-name" onClick={() => open(experiment.id)}>
                      {meta?.name ?? experiment.id}
                    </button>
                    <span className="muted mono">{experiment.id}</span>
                    <span className="muted">
                      {plural(experiment.conditions.size, 'condition')} ·{' '}
                      {plural(experiment.runs.length, 'run')} ·{' '}
                      {[...new Set(experiment.runs.map((r) => r.format))].join(', ')}
                    </span>
                    {experiment.conditions.size > 1 &&
                    (meta?.referenceBasis === 'name' || meta?.referenceBasis === 'earliest') ? (
                      <span
                        className="tag guessed"
                        title="Nothing in the files declares the reference: Pairwise guessed it. Change it in the Conditions view."
                      >
                        reference guessed
                      </span>
                    ) : null}
                    <span className="spacer" />
                    <button className="secondary" onClick={() => open(experiment.id)}>
                      Compare
                    </button>
                  </header>
                  {meta?.question && meta.question !== meta.name ? (
                    <p className="question">{meta.question}</p>
                  ) : null}
                  <table className="grid compact">
                    <thead>
                      <tr>
                        <th>Condition</th>
                        <th>Role</th>
                        <th>Run</th>
                        <th>Format</th>
                        <th className="num">Examples</th>
                        <th>State</th>
                        <th>Finished</th>
                      </tr>
                    </thead>
                    <tbody>
                      {[...experiment.conditions.entries()].flatMap(([condition, list]) =>
                        list.map((run, i) => (
                          <tr
                            key={run.run_id}
                            className={run.superseded || run.missing ? 'dim' : undefined}
                          >
                            <td>{i === 0 ? condition : ''}</td>
                            <td>
                              {i === 0 ? (
                                <RoleTag
                                  role={
                                    condition === meta?.reference
                                      ? 'reference'
                                      : run.role === 'reference'
                                        ? 'unknown'
                                        : (run.role ?? 'unknown')
                                  }
                                />
                              ) : (
                                ''
                              )}
                            </td>
                            <td className="mono" title={run.path ?? undefined}>
                              {run.run_id.length > 14 ? `${run.run_id.slice(0, 14)}…` : run.run_id}
                            </td>
                            <td>{run.format}</td>
                            <td className="num">{count(run.examples)}</td>
                            <td>
                              <span
                                className={`state state-${runState(run)}`}
                                title={run.warnings.join('\n') || undefined}
                              >
                                {runState(run)}
                              </span>
                            </td>
                            <td className="muted">
                              {run.finished_at?.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') ?? '—'}
                            </td>
                          </tr>
                        )),
                      )}
                    </tbody>
                  </table>
                </article>
              );
            })}
          </section>
        ))}
      </section>
    </DropZone>
  );
}
