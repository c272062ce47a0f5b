import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SyncPlan, SyncStatus } from '../../../shared/findings';
import { request, subscribe } from '../../api';
import { useApp } from '../../store';
import { SyncPlanDialog, SyncScope } from './SyncScope';
import { useRequest } from '../../useRequest';

const stateHelp: Record<string, string> = {
  pending: 'Waiting to be sent',
  synced: 'Accepted by the server',
  rejected: 'The server refused this item; see why',
  retrying: 'Failed for a reason that may pass (network, 429, 5xx); will be retried',
  stopped: 'Sync stopped: the server refused the key or the address',
};

/** Optional sync: off until configured, offline is normal, every item's state in view. */
export function SyncView() {
  const ask = useRequest();
  const [status, setStatus] = useState<SyncStatus | null>(null);
  const [plan, setPlan] = useState<SyncPlan | null>(null);
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [chosen, setChosen] = useState<string[] | null>(null);
  const toast = useApp((s) => s.toast);

  const load = useCallback(() => {
    ask('sync:status', {}, (s) => {
      setStatus(s);
      setUrl((current) => current || (s.endpoint ?? ''));
    });
  }, [ask]);
  useEffect(() => {
    load();
    return subscribe('sync:changed', load);
  }, [load]);

  const configure = async (event: FormEvent) => {
    event.preventDefault();
    try {
      setStatus(
        await request('sync:configure', { url: url || null, ...(key ? { apiKey: key } : {}) }),
      );
      setKey('');
      toast('info', 'Sync settings saved. The key is kept out of the database.');
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  const scope =
    chosen === null
      ? 'the whole library'
      : chosen.length === 1
        ? chosen[0]!
        : `${chosen.length} experiments`;
  const run = async (dryRun: boolean) => {
    try {
      const result = await request('sync:run', {
        dryRun,
        ...(chosen === null ? {} : { experimentIds: chosen }),
      });
      setPlan(dryRun ? result.plan : null);
      if (!dryRun) toast('info', `Syncing ${scope}…`);
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };

  if (!status) return <p className="muted pad">Loading…</p>;
  return (
    <section className="sync">
      <header className="toolbar">
        <h2>Sync</h2>
        <span className="muted">
          {status.configured ? `to ${status.endpoint}` : 'off — working offline'}
        </span>
        <span className="spacer" />
        <button className="secondary" onClick={() => void run(true)}>
          What would be sent?
        </button>
        <button
          className="primary"
          disabled={!status.configured || chosen?.length === 0}
          onClick={() => void run(false)}
          title={`Queues the runs of ${scope} and sends the outbox`}
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
          onClose={() => setPlan(null)}
        />
      ) : null}
      <div className="dashboard">
        <SyncScope chosen={chosen} onChange={setChosen} />
        <form className="card sync-settings" onSubmit={(e) => void configure(e)}>
          <h3>Endpoint</h3>
          <label className="field">
            <span>
              Server address {status.endpointSource === 'env' ? '(from MECHLENS_API_URL)' : ''}
            </span>
            <input
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://mechlens.example.org"
              disabled={status.endpointSource === 'env'}
            />
          </label>
          <label className="field">
            <span>
              API key{' '}
              {status.keySource === 'env'
                ? '(from MECHLENS_API_KEY)'
                : status.keySource === 'store'
                  ? '(saved; type a new one to replace it)'
                  : '(none yet)'}
            </span>
            <input
              type="password"
              autoComplete="off"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              disabled={status.keySource === 'env'}
            />
          </label>
          {status.keyStorage === 'memory' && status.keySource !== 'env' ? (
            <p className="muted small">
              This system offers no keychain Pairwise can use, so a key typed here is kept only
              until Pairwise quits. To keep one, set MECHLENS_API_KEY.
            </p>
          ) : null}
          <button className="secondary" type="submit">
            Save settings
          </button>
        </form>
        <section className="card">
          <h3>Outbox</h3>
          <p className="muted small">
            {Object.entries(status.counts)
              .map(([state, n]) => `${n} ${state}`)
              .join(' · ') || 'Nothing queued.'}
          </p>
          <table className="grid compact">
            <thead>
              <tr>
                <th>Item</th>
                <th>State</th>
                <th className="num">Attempts</th>
                <th>Next attempt</th>
                <th>Last error</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {status.items.map((item) => (
                <tr key={item.id}>
                  <td className="mono">
                    {item.kind} {item.idempotencyKey}
                  </td>
                  <td title={stateHelp[item.state]}>{item.state}</td>
                  <td className="num">{item.attempts}</td>
                  <td>{item.nextAttemptAt?.replace('T', ' ').slice(0, 19) ?? '—'}</td>
                  <td className="wrap">{item.lastError ?? '—'}</td>
                  <td>
                    {item.state === 'retrying' ||
                    item.state === 'rejected' ||
                    item.state === 'stopped' ? (
                      <button
                        className="link"
                        onClick={() => ask('sync:retryNow', { id: item.id }, load)}
                      >
                        Retry now
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        {status.changedSinceSync.length > 0 ? (
          <section className="card">
            <h3>Changed since sync</h3>
            <p className="muted small">
              These runs' files changed after they were sent; they are not re-sent under the same
              id.
            </p>
            <ul className="mono small">
              {status.changedSinceSync.map((c) => (
                <li key={c.runId}>
                  {c.runId} (synced {c.syncedAt.slice(0, 19).replace('T', ' ')})
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </section>
  );
}
