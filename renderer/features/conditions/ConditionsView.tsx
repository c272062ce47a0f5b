import { useEffect, useState, type DragEvent } from 'react';
import { request } from '../../api';
import { count } from '../../format';
import { useApp } from '../../store';
import type { ConditionRow } from '../../store/workbench';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { SettingsDiff } from './SettingsDiff';

const roles = ['reference', 'intervention', 'control', 'unknown'] as const;
type Role = (typeof roles)[number];
const roleTitles: Record<Role, string> = {
  reference: 'Reference',
  intervention: 'Interventions',
  control: 'Controls',
  unknown: 'Unassigned',
};

type Dragged = { kind: 'condition'; name: string } | { kind: 'run'; runId: string };

function ConditionCard({
  condition,
  selected,
  onToggle,
}: {
  condition: ConditionRow;
  selected: boolean;
  onToggle(): void;
}) {
  const experimentId = useApp((s) => s.experimentId)!;
  const toast = useApp((s) => s.toast);
  const onDragStart = (event: DragEvent, payload: Dragged) => {
    event.dataTransfer.setData('application/x-pairwise', JSON.stringify(payload));
    event.stopPropagation();
  };
  const pickRepresentative = (runId: string) =>
    request('conditions:setRepresentative', {
      experimentId,
      condition: condition.name,
      runId,
    }).catch((e: Error) => toast('error', e.message));
  return (
    <div
      className={selected ? 'condition-card selected' : 'condition-card'}
      draggable
      onDragStart={(e) => onDragStart(e, { kind: 'condition', name: condition.name })}
    >
      <label className="condition-title">
        <input
          type="checkbox"
          checked={selected}
          onChange={onToggle}
          aria-label={`Select ${condition.name}`}
        />
        <strong>{condition.name}</strong>
        {condition.series ? (
          <span className="muted">
            {condition.series} = {condition.level ?? '—'}
          </span>
        ) : null}
      </label>
      {Object.keys(condition.expect).length > 0 ? (
        <div className="muted small">
          expects{' '}
          {Object.entries(condition.expect)
            .map(([metric, e]) => `${metric}: ${e.replace('_', ' ')}`)
            .join(', ')}
        </div>
      ) : null}
      {condition.compareTo.length > 0 ? (
        <div className="muted small">also compared with {condition.compareTo.join(', ')}</div>
      ) : null}
      <ul className="run-list">
        {condition.runs.map((run) => (
          <li
            key={run.run_id}
            draggable
            onDragStart={(e) => onDragStart(e, { kind: 'run', runId: run.run_id })}
            className={run.superseded || run.missing ? 'dim' : undefined}
          >
            <input
              type="radio"
              name={`rep-${condition.name}`}
              checked={condition.representativeRunId === run.run_id}
              onChange={() => void pickRepresentative(run.run_id)}
              title="The run that stands for this condition in comparisons"
              aria-label={`Use run ${run.run_id} for ${condition.name}`}
            />
            <span className="mono">{run.run_id.slice(0, 12)}</span>
            <span className="muted">
              {count(run.examples)} ex ·{' '}
              {run.superseded
                ? 'superseded'
                : run.missing
                  ? 'missing'
                  : run.state === 'completed'
                    ? 'complete'
                    : run.state}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ConditionsView() {
  const experimentId = useApp((s) => s.experimentId);
  const runPair = useApp((s) => s.runPair);
  const basis = useApp((s) => s.experiments.find((e) => e.id === s.experimentId)?.referenceBasis);
  const conditions = useApp((s) => s.conditions);
  const toast = useApp((s) => s.toast);
  const [selected, setSelected] = useState<string[]>([]);
  const [onlyDiffering, setOnlyDiffering] = useState(true);
  const [fields, setFields] = useState<string[]>([]);
  const [groupField, setGroupField] = useState('');

  useEffect(() => {
    if (!experimentId || runPair) return;
    void request('settings:fields', { experimentId }).then(setFields);
  }, [experimentId, runPair, conditions.length]);

  if (!experimentId) return <p className="muted pad">Pick an experiment in the library.</p>;
  if (runPair)
    return (
      <p className="muted pad">
        Two runs picked in the library: {runPair.baseline} is the baseline, {runPair.candidate} the
        candidate. Open an experiment from the library to see its conditions.
      </p>
    );

  const drop = async (event: DragEvent, role: Role) => {
    event.preventDefault();
    const raw = event.dataTransfer.getData('application/x-pairwise');
    if (!raw) return;
    const dragged = JSON.parse(raw) as Dragged;
    try {
      if (dragged.kind === 'condition')
        await request('conditions:setRole', { experimentId, condition: dragged.name, role });
      else await request('runs:setOverride', { runId: dragged.runId, role });
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };

  const group = async () => {
    if (!groupField) return;
    try {
      const { conditions: n } = await request('runs:groupBy', { experimentId, field: groupField });
      toast('info', `Grouped the runs into ${n} conditions by ${groupField}.`);
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };

  const toggle = (name: string) =>
    setSelected((s) => (s.includes(name) ? s.filter((n) => n !== name) : [...s, name]));

  return (
    <section className="conditions">
      <header className="toolbar">
        <h2>Conditions</h2>
        <ExperimentPicker />
        <span className="spacer" />
        <label className="inline">
          Group runs by
          <select
            value={groupField}
            onChange={(e) => setGroupField(e.target.value)}
            aria-label="Settings field"
          >
            <option value="">settings field…</option>
            {fields.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <button className="secondary" disabled={!groupField} onClick={() => void group()}>
          Group
        </button>
      </header>
      {basis === 'name' || basis === 'earliest' ? (
        <p className="reference-note guessed" role="note">
          Nothing in the files declares the reference: Pairwise guessed{' '}
          {basis === 'name' ? 'it from its name' : 'the earliest run'}. Drag the condition you
          compare against onto Reference to choose it.
        </p>
      ) : null}
      <p className="hint">
        Drag a condition (or a single run) onto a role to change it; the radio button picks which
        run stands for a condition with several runs.
      </p>
      <div className="role-columns">
        {roles.map((role) => (
          <div
            key={role}
            className="role-column"
            data-role={role}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => void drop(e, role)}
          >
            <h3>
              {roleTitles[role]}{' '}
              <span className="muted">{conditions.filter((c) => c.role === role).length}</span>
            </h3>
            {conditions
              .filter((c) => c.role === role)
              .map((c) => (
                <ConditionCard
                  key={c.name}
                  condition={c}
                  selected={selected.includes(c.name)}
                  onToggle={() => toggle(c.name)}
                />
              ))}
          </div>
        ))}
      </div>
      <header className="toolbar sub">
        <h3>Settings side by side</h3>
        <label className="inline">
          <input
            type="checkbox"
            checked={onlyDiffering}
            onChange={(e) => setOnlyDiffering(e.target.checked)}
          />
          only differing keys
        </label>
      </header>
      <SettingsDiff
        conditions={conditions.filter((c) => selected.includes(c.name))}
        onlyDiffering={onlyDiffering}
      />
    </section>
  );
}
