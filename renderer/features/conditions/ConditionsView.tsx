import { useEffect, useState, type DragEvent } from 'react';
import { request } from '../../api';
import { useApp } from '../../store';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { ConditionCard, roles, type Dragged, type Role } from './ConditionCard';
import { GroupingUndo, GroupRuns } from './GroupRuns';
import { SettingsDiff } from './SettingsDiff';
import { useRequest } from '../../useRequest';

const roleTitles: Record<Role, string> = {
  reference: 'Reference',
  intervention: 'Interventions',
  control: 'Controls',
  unknown: 'Unassigned',
};

export function ConditionsView() {
  const ask = useRequest();
  const experimentId = useApp((s) => s.experimentId);
  const runPair = useApp((s) => s.runPair);
  const basis = useApp((s) => s.experiments.find((e) => e.id === s.experimentId)?.referenceBasis);
  const conditions = useApp((s) => s.conditions);
  const toast = useApp((s) => s.toast);
  const [selected, setSelected] = useState<string[]>([]);
  const [onlyDiffering, setOnlyDiffering] = useState(true);
  const [fields, setFields] = useState<string[]>([]);

  useEffect(() => {
    if (!experimentId || runPair) return;
    ask('settings:fields', { experimentId }, setFields);
  }, [ask, experimentId, runPair, conditions.length]);

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
      {basis === 'name' || basis === 'earliest' ? (
        <p className="reference-note guessed" role="note">
          Nothing in the files declares the reference: Pairwise guessed{' '}
          {basis === 'name' ? 'it from its name' : 'the earliest run'}. Drag the condition you
          compare against onto Reference, or pick Reference in its role menu, to choose it.
        </p>
      ) : null}
      <p className="hint">
        Drag a condition (or a single run) onto a role, or use its role menu, to change it; the
        radio button picks which run stands for a condition with several runs. Set series… declares
        a series and the condition&apos;s level in it.
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
