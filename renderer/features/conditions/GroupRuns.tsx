import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import { request } from '../../api';
import { Dialog } from '../../components/Dialog';
import { counted } from '../../format';
import { useApp } from '../../store';
import { useAction } from '../../useAction';
import { useRequest } from '../../useRequest';
import { useReadOnly } from '../../useReadOnly';

type Plan = RequestOutput<'runs:groupPreview'>;
type Last = RequestOutput<'runs:lastGrouping'>;

/** Where every run would go, before anything changes. */
function GroupPlanDialog({
  plan,
  busy,
  onConfirm,
  onCancel,
}: {
  plan: Plan;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <Dialog
      title={`Group runs by ${plan.field}?`}
      confirm={plan.changes === 0 ? undefined : `Group ${counted(plan.changes, 'run')}`}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {plan.changes === 0
          ? 'Every run is already in the condition this field gives: nothing would change.'
          : `${plan.changes} of ${counted(plan.moves.length, 'run')} ${plan.changes === 1 ? 'moves' : 'move'}, into ${counted(plan.conditions.length, 'condition')}. Each keeps the role it has now; you can undo this once.`}
      </p>
      {plan.notes.map((note) => (
        <p key={note} className="muted small">
          {note}
        </p>
      ))}
      <table className="plan-table" aria-label="Where each run goes">
        <thead>
          <tr>
            <th>Run</th>
            <th>From</th>
            <th>To</th>
            <th style={{ width: '7em' }}>Role</th>
          </tr>
        </thead>
        <tbody>
          {plan.moves.map((m) => (
            <tr key={m.runId} className={m.from === m.to ? 'dim' : undefined}>
              <td className="mono" title={m.runId}>
                {m.runId}
              </td>
              <td title={m.from}>{m.from}</td>
              <td title={m.to}>{m.to}</td>
              <td>{m.role}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

/**
 * "Group runs by": pick a settings field, see where every run would go, confirm; the last
 * grouping can be undone (the core keeps what it replaced, so Undo survives a reload).
 */
export function GroupRuns({ experimentId, fields }: { experimentId: string; fields: string[] }) {
  const toast = useApp((s) => s.toast);
  const [field, setField] = useState('');
  const [plan, setPlan] = useState<Plan | null>(null);
  const send = useRequest();
  const [busy, act] = useAction();
  const { readOnly, locked } = useReadOnly();

  const preview = () => send('runs:groupPreview', { experimentId, field }, setPlan);
  const apply = () =>
    act(async () => {
      if (!plan) return;
      const { conditions: n } = await request('runs:groupBy', { experimentId, field: plan.field });
      toast(
        'info',
        `Grouped the runs into ${counted(n, 'condition')} by ${plan.field}. You can undo it.`,
      );
      setPlan(null);
    });

  return (
    <>
      <label className="inline">
        Group runs by
        <select
          value={field}
          onChange={(e) => setField(e.target.value)}
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
      <button className="secondary" {...locked} disabled={readOnly || !field} onClick={preview}>
        Group…
      </button>
      {plan ? (
        <GroupPlanDialog plan={plan} busy={busy} onConfirm={apply} onCancel={() => setPlan(null)} />
      ) : null}
    </>
  );
}

/** The last grouping of this experiment, with its one level of undo. */
export function GroupingUndo({ experimentId }: { experimentId: string }) {
  const ask = useRequest();
  const { locked } = useReadOnly();
  const toast = useApp((s) => s.toast);
  const conditions = useApp((s) => s.conditions);
  const [last, setLast] = useState<{ experimentId: string; value: Last } | null>(null);
  useEffect(() => {
    let live = true;
    ask('runs:lastGrouping', { experimentId }, (value) => {
      if (live) setLast({ experimentId, value });
    });
    return () => {
      live = false;
    };
  }, [ask, experimentId, conditions]);
  const undoable = last?.experimentId === experimentId ? last.value : null;
  if (!undoable) return null;
  const undo = () =>
    ask('runs:groupUndo', { experimentId }, ({ undone }) =>
      toast('info', undone ? 'The grouping was undone.' : 'There was nothing to undo.'),
    );
  return (
    <div className="undo-bar" role="status">
      <span>
        Runs grouped by <strong className="mono">{undoable.field}</strong> on{' '}
        {undoable.appliedAt.replace('T', ' ').slice(0, 16)}: roles were kept.
      </span>
      <button className="secondary" {...locked} onClick={undo}>
        Undo grouping
      </button>
    </div>
  );
}
