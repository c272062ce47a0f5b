import type { SyncPlan } from '../../../shared/findings';
import { Dialog } from '../../components/Dialog';
import { counted } from '../../format';
import { useApp } from '../../store';
import { useReadOnly } from '../../useReadOnly';

/** Which experiments' runs a sync queues: all of them, or the ones ticked. */
export function SyncScope({
  chosen,
  onChange,
}: {
  chosen: string[] | null;
  onChange(chosen: string[] | null): void;
}) {
  const experiments = useApp((s) => s.experiments);
  // Only a sync uses the choice, and a read-only session may not start one.
  const { locked } = useReadOnly();
  const ticked = (id: string) => chosen === null || chosen.includes(id);
  const toggle = (id: string) => {
    const current = chosen ?? experiments.map((e) => e.id);
    const next = current.includes(id) ? current.filter((x) => x !== id) : [...current, id];
    onChange(next.length === experiments.length ? null : next);
  };
  return (
    <section className="card sync-scope" aria-label="Experiments to send">
      <h3>Experiments to send</h3>
      <label className="inline">
        <input
          type="checkbox"
          checked={chosen === null}
          {...locked}
          onChange={(e) => onChange(e.target.checked ? null : [])}
        />
        All experiments ({experiments.length})
      </label>
      <ul className="scope-list">
        {experiments.map((e) => (
          <li key={e.id}>
            <label className="inline" title={e.id}>
              <input
                type="checkbox"
                checked={ticked(e.id)}
                {...locked}
                onChange={() => toggle(e.id)}
                aria-label={`Send ${e.id}`}
              />
              <span className="ellipsis">{e.id}</span>
              <span className="muted small">{counted(e.runs, 'run')}</span>
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The answer to "What would be sent?", in front of the user rather than below the outbox. */
export function SyncPlanDialog({
  plan,
  scope,
  canSend,
  onSend,
  onClose,
}: {
  plan: SyncPlan;
  scope: string;
  canSend: boolean;
  onSend(): void;
  onClose(): void;
}) {
  const runs = useApp((s) => s.runs);
  const experimentOf = new Map(runs.map((r) => [r.run_id, r.experiment_id]));
  const nothing = plan.newRuns.length === 0 && plan.queued.length === 0;
  return (
    <Dialog
      title="What would be sent"
      confirm={canSend && !nothing ? 'Sync now' : undefined}
      onConfirm={onSend}
      onCancel={onClose}
    >
      <p>
        {nothing
          ? `Nothing: ${scope} is already sent and the outbox is empty.`
          : `${counted(plan.newRuns.length, 'run')} of ${scope} not sent yet, and ${counted(plan.queued.length, 'item')} already waiting in the outbox.`}
        {canSend ? '' : ' Sync is not set up: give an address and a key first.'}
      </p>
      {plan.newRuns.length > 0 ? (
        <>
          <h4>Runs to queue</h4>
          <ul className="mono small plan-list">
            {plan.newRuns.map((id) => (
              <li key={id}>
                {id} <span className="muted">{experimentOf.get(id) ?? ''}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {plan.queued.length > 0 ? (
        <>
          <h4>Waiting in the outbox</h4>
          <ul className="mono small plan-list">
            {plan.queued.map((item) => (
              <li key={item.id}>
                {item.kind} {item.kind === 'finding' ? item.idempotencyKey : item.itemId}{' '}
                <span className="muted">{item.state}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Dialog>
  );
}
