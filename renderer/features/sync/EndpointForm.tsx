import { useState, type FormEvent } from 'react';
import type { SyncStatus } from '../../../shared/findings';
import { request } from '../../api';
import { useApp } from '../../store';
import { keySourceNote } from './syncText';
import { useReadOnly } from '../../useReadOnly';

/** The server address and API key; either is read-only when the environment sets it. */
export function EndpointForm({
  status,
  url,
  onUrl,
  onSaved,
}: {
  status: SyncStatus;
  url: string;
  onUrl(url: string): void;
  onSaved(status: SyncStatus): void;
}) {
  const toast = useApp((s) => s.toast);
  const { locked } = useReadOnly();
  const [key, setKey] = useState('');
  const configure = async (event: FormEvent) => {
    event.preventDefault();
    try {
      onSaved(
        await request('sync:configure', { url: url || null, ...(key ? { apiKey: key } : {}) }),
      );
      setKey('');
      toast('info', 'Sync settings saved. The key is kept out of the database.');
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  return (
    <form className="card sync-settings" onSubmit={(e) => void configure(e)}>
      <h3>Endpoint</h3>
      <label className="field">
        <span>
          Server address {status.endpointSource === 'env' ? '(from MECHLENS_API_URL)' : ''}
        </span>
        <input
          value={url}
          onChange={(e) => onUrl(e.target.value)}
          placeholder="https://mechlens.example.org"
          disabled={status.endpointSource === 'env'}
        />
      </label>
      <label className="field">
        <span>API key {keySourceNote(status.keySource)}</span>
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
          This system offers no keychain Pairwise can use, so a key typed here is kept only until
          Pairwise quits. To keep one, set MECHLENS_API_KEY.
        </p>
      ) : null}
      <button className="secondary" type="submit" {...locked}>
        Save settings
      </button>
    </form>
  );
}
