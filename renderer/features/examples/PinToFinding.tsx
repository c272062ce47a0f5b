import { useState } from 'react';
import type { FindingRow } from '../../../shared/findings';
import { request } from '../../api';
import { Dialog } from '../../components/Dialog';
import { useApp } from '../../store';

const NEW = '';

/** The finding the example goes to: one of the experiment's, or a new one. */
function PinTargets({
  findings,
  target,
  onTarget,
}: {
  findings: FindingRow[];
  target: string;
  onTarget(id: string): void;
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
            onChange={() => onTarget(f.id)}
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
          onChange={() => onTarget(NEW)}
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
  const [busy, setBusy] = useState(false);

  const open = async () => {
    try {
      const list = await request('findings:list', { experimentId });
      setFindings(list);
      setTarget(list[0]?.id ?? NEW);
      setNote('');
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };
  const pin = async () => {
    setBusy(true);
    try {
      const findingId =
        target === NEW ? (await request('findings:create', { experimentId })).finding.id : target;
      const view = await request('findings:pin', { findingId, reportKey, pair, exampleId, note });
      toast('info', `Pinned ${exampleId} to “${view.finding.title}”.`);
      setFindings(null);
    } catch (error) {
      toast('error', (error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button className="secondary" onClick={() => void open()}>
        Pin to finding…
      </button>
      {findings ? (
        <Dialog
          title={`Pin ${exampleId} to a finding`}
          confirm="Pin"
          busy={busy}
          onConfirm={() => void pin()}
          onCancel={() => setFindings(null)}
        >
          <PinTargets findings={findings} target={target} onTarget={setTarget} />
          <label className="field">
            <span>Note (optional)</span>
            <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={2} />
          </label>
        </Dialog>
      ) : null}
    </>
  );
}
