import { request } from '../../api';
import { useApp } from '../../store';
import { AddFolder } from './AddFolder';

function FirstRun() {
  const toast = useApp((s) => s.toast);
  return (
    <section className="empty-state">
      <h2>No runs yet</h2>
      <p>
        Add a folder of run files — MechLens records, REPS run folders, Inspect logs,
        lm-evaluation-harness results, promptfoo outputs, or plain JSONL/CSV — and Pairwise indexes
        it and keeps it in step with the disk.
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
  );
}

export function LibraryView() {
  const summary = useApp((s) => s.summary);
  const runs = useApp((s) => s.runs);
  if (!summary) return <p className="muted pad">Loading the library…</p>;
  if (summary.runs === 0) return <FirstRun />;
  return (
    <section className="library">
      <header className="toolbar">
        <h2>Library</h2>
        <span className="muted">
          {summary.projects} projects · {summary.experiments} experiments · {summary.runs} runs ·{' '}
          {summary.examples.toLocaleString()} examples
        </span>
        <span className="spacer" />
        <AddFolder />
      </header>
      <table className="grid">
        <thead>
          <tr>
            <th>Experiment</th>
            <th>Condition</th>
            <th>Role</th>
            <th>Format</th>
            <th className="num">Examples</th>
            <th>State</th>
            <th>Run</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.run_id} className={run.superseded ? 'dim' : undefined}>
              <td>{run.experiment_id}</td>
              <td>{run.condition}</td>
              <td>{run.role ?? '—'}</td>
              <td>{run.format}</td>
              <td className="num">{run.examples.toLocaleString()}</td>
              <td>{run.superseded ? 'superseded' : run.state}</td>
              <td className="mono">{run.run_id.slice(0, 12)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
