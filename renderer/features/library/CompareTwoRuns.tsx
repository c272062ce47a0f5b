import { useState } from 'react';
import { counted } from '../../format';
import { useApp } from '../../store';
import type { RunRow } from '../../store/library';

/** What tells runs of one experiment apart: when it ran, its condition, its id and size. */
function label(run: RunRow): string {
  const id = run.run_id.length > 14 ? `${run.run_id.slice(0, 14)}…` : run.run_id;
  const when = run.finished_at ?? run.started_at;
  return `${when ? `${when.slice(0, 16).replace('T', ' ')} · ` : ''}${run.condition} · ${id} · ${counted(run.examples, 'example')}`;
}

function byExperiment(runs: RunRow[]): [string, RunRow[]][] {
  const groups = new Map<string, RunRow[]>();
  for (const run of runs)
    groups.set(run.experiment_id, [...(groups.get(run.experiment_id) ?? []), run]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

function RunSelect(props: {
  label: string;
  runs: RunRow[];
  value: string;
  onChange(value: string): void;
}) {
  return (
    <label className="run-select">
      <span>{props.label}</span>
      <select
        aria-label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">Pick a run…</option>
        {byExperiment(props.runs).map(([experiment, runs]) => (
          <optgroup key={experiment} label={experiment}>
            {runs.map((run) => (
              <option key={run.run_id} value={run.run_id} title={run.path ?? undefined}>
                {label(run)}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

/**
 * Any two runs of the library, whatever their experiments and conditions: the baseline is the
 * reference side. For "I changed one thing: did behaviour change?" when the files say nothing
 * of experiments or roles.
 */
export function CompareTwoRuns({ onClose }: { onClose(): void }) {
  const runs = useApp((s) => s.runs);
  const compareRuns = useApp((s) => s.compareRuns);
  const [baseline, setBaseline] = useState('');
  const [candidate, setCandidate] = useState('');
  const ready = baseline !== '' && candidate !== '' && baseline !== candidate;
  return (
    <section className="compare-two card" aria-label="Compare two runs">
      <RunSelect label="Baseline" runs={runs} value={baseline} onChange={setBaseline} />
      <RunSelect label="Candidate" runs={runs} value={candidate} onChange={setCandidate} />
      <div className="actions">
        <button disabled={!ready} onClick={() => compareRuns({ baseline, candidate })}>
          Compare
        </button>
        <button className="secondary" onClick={onClose}>
          Cancel
        </button>
        <span className="muted small">
          {baseline !== '' && baseline === candidate
            ? 'Pick two different runs.'
            : 'The baseline is the reference side, whatever the experiments and roles.'}
        </span>
      </div>
    </section>
  );
}
