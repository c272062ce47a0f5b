import type { OutboxItem, SyncStatus } from '../../../shared/findings';
import { useRequest } from '../../useRequest';
import { canRetry, outboxSummary, secondsLabel, stateHelp } from './syncText';
import { useReadOnly } from '../../useReadOnly';

function OutboxLine({ item, onRetried }: { item: OutboxItem; onRetried(): void }) {
  const ask = useRequest();
  const { locked } = useReadOnly();
  return (
    <tr>
      <td className="mono">
        {item.kind} {item.idempotencyKey}
      </td>
      <td title={stateHelp[item.state]}>{item.state}</td>
      <td className="num">{item.attempts}</td>
      <td>{item.nextAttemptAt === null ? '—' : secondsLabel(item.nextAttemptAt)}</td>
      <td className="wrap">{item.lastError ?? '—'}</td>
      <td>
        {canRetry(item.state) ? (
          <button
            className="link"
            {...locked}
            onClick={() => ask('sync:retryNow', { id: item.id }, onRetried)}
          >
            Retry now
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** Every queued item with its state, attempts and last error: nothing fails out of sight. */
export function Outbox({ status, onRetried }: { status: SyncStatus; onRetried(): void }) {
  return (
    <section className="card">
      <h3>Outbox</h3>
      <p className="muted small">{outboxSummary(status.counts)}</p>
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
            <OutboxLine key={item.id} item={item} onRetried={onRetried} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Runs whose files changed after they were sent, which a sync will not send again. */
export function ChangedSinceSync({ changed }: { changed: SyncStatus['changedSinceSync'] }) {
  if (changed.length === 0) return null;
  return (
    <section className="card">
      <h3>Changed since sync</h3>
      <p className="muted small">
        These runs' files changed after they were sent; they are not re-sent under the same id.
      </p>
      <ul className="mono small">
        {changed.map((c) => (
          <li key={c.runId}>
            {c.runId} (synced {secondsLabel(c.syncedAt)})
          </li>
        ))}
      </ul>
    </section>
  );
}
