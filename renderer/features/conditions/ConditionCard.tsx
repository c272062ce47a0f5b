import { useState, type DragEvent } from 'react';
import { BreakableText } from '../../components/BreakableText';
import { count } from '../../format';
import { useApp } from '../../store';
import type { ConditionRow } from '../../store/workbench';
import { useRequest } from '../../useRequest';
import { expectationsText, runOverride, runStatusText } from './conditionText';
import { draggedType, roleLabels, roles, type Dragged, type Role } from './roles';
import { SeriesForm } from './SeriesForm';
import { useReadOnly } from '../../useReadOnly';

type RunOfCondition = ConditionRow['runs'][number];

function startDrag(event: DragEvent, payload: Dragged) {
  event.dataTransfer.setData(draggedType, JSON.stringify(payload));
  event.stopPropagation();
}

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
  const { locked } = useReadOnly();
  return (
    <select
      className="role-menu"
      {...locked}
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

/** The condition's role, its series if it has one, and the way to declare one. */
function ConditionControls({
  condition,
  editingSeries,
  onEditSeries,
}: {
  condition: ConditionRow;
  editingSeries: boolean;
  onEditSeries(): void;
}) {
  const ask = useRequest();
  const { locked } = useReadOnly();
  const experimentId = useApp((s) => s.experimentId)!;
  return (
    <div className="condition-controls">
      <RoleMenu
        value={condition.role}
        label={`Role of ${condition.name}`}
        onChange={(role) =>
          ask('conditions:setRole', {
            experimentId,
            condition: condition.name,
            role: role ?? 'unknown',
          })
        }
      />
      {condition.series ? (
        <span className="muted small">
          {condition.series} = {condition.level ?? '—'}
        </span>
      ) : null}
      {editingSeries ? null : (
        <button className="link small" {...locked} onClick={onEditSeries}>
          {condition.series ? 'Edit series' : 'Set series…'}
        </button>
      )}
    </div>
  );
}

/** What the files declare beyond the role: expected effects and extra comparisons. */
function DeclaredNotes({ condition }: { condition: ConditionRow }) {
  return (
    <>
      {Object.keys(condition.expect).length > 0 ? (
        <div className="muted small">expects {expectationsText(condition.expect)}</div>
      ) : null}
      {condition.compareTo.length > 0 ? (
        <div className="muted small">also compared with {condition.compareTo.join(', ')}</div>
      ) : null}
    </>
  );
}

/** One run of the condition: pick it to stand for the condition, or give it its own role. */
function RunItem({ run, condition }: { run: RunOfCondition; condition: ConditionRow }) {
  const ask = useRequest();
  const { readOnly } = useReadOnly();
  const experimentId = useApp((s) => s.experimentId)!;
  return (
    <li
      draggable={!readOnly}
      onDragStart={(e) => startDrag(e, { kind: 'run', runId: run.run_id })}
      className={run.superseded || run.missing ? 'dim' : undefined}
    >
      <input
        type="radio"
        name={`rep-${condition.name}`}
        checked={condition.representativeRunId === run.run_id}
        disabled={readOnly}
        onChange={() =>
          ask('conditions:setRepresentative', {
            experimentId,
            condition: condition.name,
            runId: run.run_id,
          })
        }
        title="The run that stands for this condition in comparisons"
        aria-label={`Use run ${run.run_id} for ${condition.name}`}
      />
      <span className="mono" title={run.run_id}>
        {run.run_id.slice(0, 12)}
      </span>
      <span className="muted">
        {count(run.examples)} ex · {runStatusText(run)}
      </span>
      <RoleMenu
        inherit
        value={runOverride(run, condition.role)}
        label={`Role of run ${run.run_id}`}
        onChange={(role) => ask('runs:setOverride', { runId: run.run_id, role })}
      />
    </li>
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
  const [editingSeries, setEditingSeries] = useState(false);
  const { readOnly } = useReadOnly();
  return (
    <div
      className={selected ? 'condition-card selected' : 'condition-card'}
      draggable={!readOnly}
      onDragStart={(e) => startDrag(e, { kind: 'condition', name: condition.name })}
    >
      <label className="condition-title" title={condition.name}>
        <input
          type="checkbox"
          checked={selected}
          onChange={onToggle}
          aria-label={`Select ${condition.name}`}
        />
        <strong>
          <BreakableText text={condition.name} />
        </strong>
      </label>
      <ConditionControls
        condition={condition}
        editingSeries={editingSeries}
        onEditSeries={() => setEditingSeries(true)}
      />
      {editingSeries ? (
        <SeriesForm condition={condition} onDone={() => setEditingSeries(false)} />
      ) : null}
      <DeclaredNotes condition={condition} />
      <ul className="run-list">
        {condition.runs.map((run) => (
          <RunItem key={run.run_id} run={run} condition={condition} />
        ))}
      </ul>
    </div>
  );
}
