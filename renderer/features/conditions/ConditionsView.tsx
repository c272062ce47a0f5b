import { useEffect, useState, type DragEvent } from 'react';
import type { ReferenceBasis } from '../../../shared/contract';
import { request } from '../../api';
import { useApp } from '../../store';
import type { ConditionRow } from '../../store/workbench';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { ConditionCard } from './ConditionCard';
import { GroupingUndo, GroupRuns } from './GroupRuns';
import { draggedType, referenceGuessed, roles, roleTitles, type Dragged, type Role } from './roles';
import { SettingsDiff } from './SettingsDiff';
import { useRequest } from '../../useRequest';
import { useReadOnly } from '../../useReadOnly';

/** The settings fields runs can be grouped by, asked again when the conditions change. */
function useSettingsFields(experimentId: string): string[] {
  const ask = useRequest();
  const conditionCount = useApp((s) => s.conditions.length);
  const [fields, setFields] = useState<string[]>([]);
  useEffect(() => {
    ask('settings:fields', { experimentId }, setFields);
  }, [ask, experimentId, conditionCount]);
  return fields;
}

/** A condition or a run dropped on a role column takes that role. */
function useDropOnRole(experimentId: string) {
  const toast = useApp((s) => s.toast);
  return async (event: DragEvent, role: Role) => {
    event.preventDefault();
    const raw = event.dataTransfer.getData(draggedType);
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
}

function GuessedReferenceNote({ basis }: { basis: ReferenceBasis | null | undefined }) {
  if (!referenceGuessed(basis)) return null;
  return (
    <p className="reference-note guessed" role="note">
      Nothing in the files declares the reference: Pairwise guessed{' '}
      {basis === 'name' ? 'it from its name' : 'the earliest run'}. Drag the condition you compare
      against onto Reference, or pick Reference in its role menu, to choose it.
    </p>
  );
}

function RoleColumn({
  role,
  conditions,
  selected,
  onToggle,
  onDrop,
}: {
  role: Role;
  conditions: ConditionRow[];
  selected: string[];
  onToggle(name: string): void;
  onDrop(event: DragEvent): void;
}) {
  const mine = conditions.filter((c) => c.role === role);
  return (
    <div
      className="role-column"
      data-role={role}
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <h3>
        {roleTitles[role]} <span className="muted">{mine.length}</span>
      </h3>
      {mine.map((c) => (
        <ConditionCard
          key={c.name}
          condition={c}
          selected={selected.includes(c.name)}
          onToggle={() => onToggle(c.name)}
        />
      ))}
    </div>
  );
}

/** The settings of the ticked conditions in columns, by default only the keys that differ. */
function SettingsSideBySide({ conditions }: { conditions: ConditionRow[] }) {
  const [onlyDiffering, setOnlyDiffering] = useState(true);
  return (
    <>
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
      <SettingsDiff conditions={conditions} onlyDiffering={onlyDiffering} />
    </>
  );
}

function Conditions({ experimentId }: { experimentId: string }) {
  const basis = useApp((s) => s.experiments.find((e) => e.id === s.experimentId)?.referenceBasis);
  const conditions = useApp((s) => s.conditions);
  const fields = useSettingsFields(experimentId);
  const drop = useDropOnRole(experimentId);
  const { readOnly } = useReadOnly();
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (name: string) =>
    setSelected((s) => (s.includes(name) ? s.filter((n) => n !== name) : [...s, name]));
  return (
    <section className="conditions">
      <header className="toolbar">
        <h2>Conditions</h2>
        <ExperimentPicker />
        <span className="spacer" />
        <GroupRuns experimentId={experimentId} fields={fields} />
      </header>
      <GroupingUndo experimentId={experimentId} />
      <GuessedReferenceNote basis={basis} />
      {readOnly ? (
        <p className="hint">
          The roles, representatives and series an editor set. Read-only: ask an editor to change
          them.
        </p>
      ) : (
        <p className="hint">
          Drag a condition (or a single run) onto a role, or use its role menu, to change it; the
          radio button picks which run stands for a condition with several runs. Set series…
          declares a series and the condition&apos;s level in it.
        </p>
      )}
      <div className="role-columns">
        {roles.map((role) => (
          <RoleColumn
            key={role}
            role={role}
            conditions={conditions}
            selected={selected}
            onToggle={toggle}
            onDrop={(e) => void drop(e, role)}
          />
        ))}
      </div>
      <SettingsSideBySide conditions={conditions.filter((c) => selected.includes(c.name))} />
    </section>
  );
}

export function ConditionsView() {
  const experimentId = useApp((s) => s.experimentId);
  const runPair = useApp((s) => s.runPair);
  if (!experimentId) return <p className="muted pad">Pick an experiment in the library.</p>;
  if (runPair)
    return (
      <p className="muted pad">
        Two runs picked in the library: {runPair.baseline} is the baseline, {runPair.candidate} the
        candidate. Open an experiment from the library to see its conditions.
      </p>
    );
  return <Conditions experimentId={experimentId} />;
}
