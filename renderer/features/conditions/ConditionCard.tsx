import { useState, type DragEvent } from 'react';
import { request } from '../../api';
import { count } from '../../format';
import { useApp } from '../../store';
import type { ConditionRow } from '../../store/workbench';

export const roles = ['reference', 'intervention', 'control', 'unknown'] as const;
export type Role = (typeof roles)[number];
const roleLabels: Record<Role, string> = {
  reference: 'Reference',
  intervention: 'Intervention',
  control: 'Control',
  unknown: 'Unassigned',
};

export type Dragged = { kind: 'condition'; name: string } | { kind: 'run'; runId: string };

/** The same choice as dragging, for keyboards and for anyone who would rather not drag. */
function RoleMenu({
  value,
  label,
  onChange,
  inherit,
}: {
  value: string;
  label: string;
  onChange(role: Role | null): void;
  /** A run may follow its condition's role instead of having its own. */
  inherit?: boolean;
}) {
  return (
    <select
      className="role-menu"
      value={value}
      aria-label={label}
      onChange={(e) => onChange(e.target.value === '' ? null : (e.target.value as Role))}
    >
      {inherit ? <option value="">as its condition</option> : null}
      {roles.map((r) => (
        <option key={r} value={r}>
          {roleLabels[r]}
        </option>
      ))}
    </select>
  );
}

/** Series name and level of one condition, declared by hand and kept like a role. */
function SeriesForm({ condition, onDone }: { condition: ConditionRow; onDone(): void }) {
  const experimentId = useApp((s) => s.experimentId)!;
  const toast = useApp((s) => s.toast);
  const [series, setSeries] = useState(condition.series ?? '');
  const [level, setLevel] = useState(condition.level === null ? '' : String(condition.level));
  const save = async (clear: boolean) => {
    const parsed = level.trim() === '' ? null : Number(level);
    if (!clear && (series.trim() === '' || (parsed !== null && !Number.isFinite(parsed)))) {
      toast('error', 'A series needs a name, and its level a number.');
      return;
    }
    try {
      await request('conditions:setSeries', {
        experimentId,
        condition: condition.name,
        series: clear ? null : series.trim(),
        level: clear ? null : parsed,
      });
      onDone();
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };
  return (
    <form
      className="series-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save(false);
      }}
    >
      <input
        value={series}
        onChange={(e) => setSeries(e.target.value)}
        placeholder="series, e.g. steering strength"
        aria-label={`Series of ${condition.name}`}
      />
      <input
        type="number"
        step="any"
        value={level}
        onChange={(e) => setLevel(e.target.value)}
        placeholder="level"
        aria-label={`Level of ${condition.name}`}
      />
      <button className="secondary" type="submit">
        Save series
      </button>
      {condition.series ? (
        <button className="link" type="button" onClick={() => void save(true)}>
          Clear
        </button>
      ) : null}
      <button className="link" type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

export function ConditionCard({
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
  const [editingSeries, setEditingSeries] = useState(false);
  const onDragStart = (event: DragEvent, payload: Dragged) => {
    event.dataTransfer.setData('application/x-pairwise', JSON.stringify(payload));
    event.stopPropagation();
  };
  const act = (promise: Promise<unknown>) => promise.catch((e: Error) => toast('error', e.message));
  const pickRepresentative = (runId: string) =>
    act(
      request('conditions:setRepresentative', {
        experimentId,
        condition: condition.name,
        runId,
      }),
    );
  return (
    <div
      className={selected ? 'condition-card selected' : 'condition-card'}
      draggable
      onDragStart={(e) => onDragStart(e, { kind: 'condition', name: condition.name })}
    >
      <label className="condition-title" title={condition.name}>
        <input
          type="checkbox"
          checked={selected}
          onChange={onToggle}
          aria-label={`Select ${condition.name}`}
        />
        <strong>{condition.name}</strong>
      </label>
      <div className="condition-controls">
        <RoleMenu
          value={condition.role}
          label={`Role of ${condition.name}`}
          onChange={(role) =>
            void act(
              request('conditions:setRole', {
                experimentId,
                condition: condition.name,
                role: role ?? 'unknown',
              }),
            )
          }
        />
        {condition.series ? (
          <span className="muted small">
            {condition.series} = {condition.level ?? '—'}
          </span>
        ) : null}
        {editingSeries ? null : (
          <button className="link small" onClick={() => setEditingSeries(true)}>
            {condition.series ? 'Edit series' : 'Set series…'}
          </button>
        )}
      </div>
      {editingSeries ? (
        <SeriesForm condition={condition} onDone={() => setEditingSeries(false)} />
      ) : null}
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
            <span className="mono" title={run.run_id}>
              {run.run_id.slice(0, 12)}
            </span>
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
            <RoleMenu
              inherit
              value={run.role && run.role !== condition.role ? run.role : ''}
              label={`Role of run ${run.run_id}`}
              onChange={(role) =>
                void act(request('runs:setOverride', { runId: run.run_id, role }))
              }
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
