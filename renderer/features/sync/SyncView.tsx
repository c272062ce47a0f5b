import { useState } from 'react';
import { ChangedSinceSync, Outbox } from './Outbox';
import { EndpointForm } from './EndpointForm';
import { SyncPlanDialog, SyncScope } from './SyncScope';
import { useSyncRun, useSyncStatus } from './useSyncStatus';
import { READ_ONLY_TITLE, useReadOnly } from '../../useReadOnly';

/** Optional sync: off until configured, offline is normal, every item's state in view. */
export function SyncView() {
  const { status, setStatus, load, url, setUrl } = useSyncStatus();
  const [chosen, setChosen] = useState<string[] | null>(null);
  const { plan, closePlan, run, scope } = useSyncRun(chosen);
  const { readOnly, locked } = useReadOnly();
  if (!status) return <p className="muted pad">Loading…</p>;
  return (
    <section className="sync">
      <header className="toolbar">
        <h2>Sync</h2>
        <span className="muted">
          {status.configured ? `to ${status.endpoint}` : 'off — working offline'}
        </span>
        <span className="spacer" />
        <button className="secondary" {...locked} onClick={() => void run(true)}>
          What would be sent?
        </button>
        <button
          className="primary"
          disabled={readOnly || !status.configured || chosen?.length === 0}
          onClick={() => void run(false)}
          title={readOnly ? READ_ONLY_TITLE : `Queues the runs of ${scope} and sends the outbox`}
        >
          Sync now
        </button>
      </header>
      {plan ? (
        <SyncPlanDialog
          plan={plan}
          scope={scope}
          canSend={status.configured}
          onSend={() => void run(false)}
          onClose={closePlan}
        />
      ) : null}
      <div className="dashboard">
        <SyncScope chosen={chosen} onChange={setChosen} />
        <EndpointForm status={status} url={url} onUrl={setUrl} onSaved={setStatus} />
        <Outbox status={status} onRetried={load} />
        <ChangedSinceSync changed={status.changedSinceSync} />
      </div>
    </section>
  );
}
