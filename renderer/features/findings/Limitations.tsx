import type { Limitation } from '../../../shared/findings';

const statusLabel: Record<Limitation['status'], string> = {
  proposed: 'proposed',
  accepted: 'accepted',
  edited: 'edited',
  dismissed: 'dismissed',
};

/** Candidate limitations come from the evidence; the researcher accepts, edits or dismisses each. */
export function Limitations({
  items,
  onChange,
}: {
  items: Limitation[];
  onChange(items: Limitation[]): void;
}) {
  const set = (id: string, patch: Partial<Limitation>) =>
    onChange(items.map((l) => (l.id === id ? { ...l, ...patch } : l)));
  const add = () =>
    onChange([
      ...items,
      { id: `own-${Date.now().toString(36)}`, text: '', origin: 'researcher', status: 'accepted' },
    ]);
  return (
    <div className="limitations-editor">
      {items.map((l) => (
        <div key={l.id} className={`limitation limitation-${l.status}`}>
          <textarea
            aria-label="Limitation"
            value={l.text}
            rows={Math.max(1, Math.ceil(l.text.length / 110))}
            onChange={(e) =>
              set(l.id, {
                text: e.target.value,
                status: l.origin === 'candidate' ? 'edited' : l.status,
              })
            }
          />
          <div className="limitation-actions">
            <span className={`muted small status-${l.status}`}>
              {l.origin === 'candidate' ? 'from the evidence' : 'yours'} · {statusLabel[l.status]}
            </span>
            {l.status !== 'accepted' && l.status !== 'edited' ? (
              <button className="link" onClick={() => set(l.id, { status: 'accepted' })}>
                Accept
              </button>
            ) : null}
            {l.status !== 'dismissed' ? (
              <button className="link" onClick={() => set(l.id, { status: 'dismissed' })}>
                Dismiss
              </button>
            ) : null}
          </div>
        </div>
      ))}
      <button className="secondary" onClick={add}>
        Add a limitation
      </button>
    </div>
  );
}
