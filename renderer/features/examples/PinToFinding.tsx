import { useState } from 'react';
import type { FindingRow } from '../../../shared/findings';
import { request } from '../../api';
import { Dialog } from '../../components/Dialog';
import { useApp } from '../../store';
import { useAction } from '../../useAction';
import { useRequest } from '../../useRequest';
import { useReadOnly } from '../../useReadOnly';

const NEW = '';

/** The experiment's findings to choose from, and a new one drafted on the spot. */
function PinTargets({
  findings,
  target,
  onChange,
}: {
  findings: FindingRow[];
  target: string;
  onChange(target: string): void;
}) {
  return (
    <fieldset className="pin-targets">
      <legend className="muted small">Which finding?</legend>
      {findings.map((f) => (
        <label key={f.id} className="inline" title={f.title}>
          <input
            type="radio"
            name="pin-target"
            checked={target === f.id}
            onChange={() => onChange(f.id)}
          />
          <span className="ellipsis">{f.title}</span>
          <span className="muted small">
            revision {f.currentRevision} · {f.updatedAt.replace('T', ' ').slice(0, 16)}
          </span>
        </label>
      ))}
      <label className="inline">
        <input
          type="radio"
          name="pin-target"
          checked={target === NEW}
          onChange={() => onChange(NEW)}
        />
        A new finding, drafted from this comparison
      </label>
    </fieldset>
  );
}

/**
 * "Pin to finding…": asks which of the experiment's findings the example goes to, or a new one,
 * instead of picking the latest (or silently creating one).
 */
export function PinToFinding({
  experimentId,
  reportKey,
  pair,
  exampleId,
}: {
  experimentId: string;
  reportKey: string;
  pair: number;
  exampleId: string;
}) {
  const toast = useApp((s) => s.toast);
  const [findings, setFindings] = useState<FindingRow[] | null>(null);
  const [target, setTarget] = useState(NEW);
  const [note, setNote] = useState('');
  const send = useRequest();
  const [busy, act] = useAction();
  const { locked } = useReadOnly();

  const open = () =>
    send('findings:list', { experimentId }, (list) => {
      setFindings(list);
      setTarget(list[0]?.id ?? NEW);
      setNote('');
    });
  const pin = () =>
    act(async () => {
      const findingId =
        target === NEW ? (await request('findings:create', { experimentId })).finding.id : target;
      const view = await request('findings:pin', { findingId, reportKey, pair, exampleId, note });
      toast('info', `Pinned ${exampleId} to “${view.finding.title}”.`);
      setFindings(null);
    });
  return (
    <>
      <button className="secondary" {...locked} onClick={open}>
        Pin to finding…
      </button>
      {findings ? (
        <Dialog
          title={`Pin ${exampleId} to a finding`}
          confirm="Pin"
          busy={busy}
          onConfirm={pin}
          onCancel={() => setFindings(null)}
        >
          <PinTargets findings={findings} target={target} onChange={setTarget} />
          <label className="field">
            <span>Note (optional)</span>
            <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={2} />
          </label>
        </Dialog>
      ) : null}
    </>
  );
}
