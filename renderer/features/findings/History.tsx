import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import { request } from '../../api';
import { useApp } from '../../store';
import { RevisionDiff } from './RevisionDiff';
import { blankBefore, revisionChanges, type RevisionChange } from './revisionDiff';
import { useRequest } from '../../useRequest';
import { useReadOnly } from '../../useReadOnly';

type Revisions = RequestOutput<'findings:revisions'>;

interface Preview {
  /** The row clicked: the changes open under it, where the user is looking. */
  anchor: number;
  revision: number;
  against: number | null;
  changes: RevisionChange[];
}

/** The finding's revisions, asked again whenever the current one moves. */
function useRevisions(findingId: string, current: number): Revisions {
  const ask = useRequest();
  const [revisions, setRevisions] = useState<{ key: string; rows: Revisions } | null>(null);
  const key = `${findingId}|${current}`;
  useEffect(() => {
    let live = true;
    ask('findings:revisions', { findingId }, (rows) => {
      if (live) setRevisions({ key, rows });
    });
    return () => {
      live = false;
    };
  }, [ask, findingId, key]);
  return revisions?.key === key ? revisions.rows : [];
}

/** The changes shown under one row of the history, if any. */
function useRevisionPreview(findingId: string) {
  const toast = useApp((s) => s.toast);
  const [preview, setPreview] = useState<Preview | null>(null);
  /** What `revision` changed from `against` (its predecessor unless asked otherwise). */
  const show = async (anchor: number, revision: number, against: number | null) => {
    try {
      const after = await request('findings:get', { findingId, revision });
      const before = against
        ? (await request('findings:get', { findingId, revision: against })).body
        : blankBefore(after.body);
      setPreview({ anchor, revision, against, changes: revisionChanges(before, after.body) });
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };
  return { preview, show, close: () => setPreview(null) };
}

function RevisionPreview({ preview, onClose }: { preview: Preview; onClose(): void }) {
  return (
    <div className="revision-preview">
      <header className="card-head">
        <h4>
          {preview.against
            ? `Revision ${preview.revision} against #${preview.against}`
            : `Revision ${preview.revision}, the first`}
        </h4>
        <span className="spacer" />
        <button className="link" onClick={onClose}>
          Close
        </button>
      </header>
      <RevisionDiff changes={preview.changes} />
    </div>
  );
}

/** Every saved revision, newest first; restoring makes a new revision, so nothing is lost. */
export function History({
  findingId,
  current,
  onRestored,
}: {
  findingId: string;
  current: number;
  onRestored(): void;
}) {
  const rows = useRevisions(findingId, current);
  const { locked } = useReadOnly();
  const { preview, show, close } = useRevisionPreview(findingId);
  const toast = useApp((s) => s.toast);
  const restore = async (revision: number) => {
    try {
      await request('findings:restore', { findingId, revision });
      toast('info', `Restored revision ${revision} as a new revision.`);
      close();
      onRestored();
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };
  return (
    <aside className="history" aria-label="Revision history">
      <h3>Revisions</h3>
      <ol className="revision-list">
        {rows.map((r) => (
          <li key={r.revision} className={r.revision === current ? 'current' : undefined}>
            <div>
              <strong>#{r.revision}</strong>{' '}
              <span className="muted small">{r.savedAt.replace('T', ' ').slice(0, 19)}</span>
            </div>
            <div className="muted small">{r.summary}</div>
            <button
              className="link"
              onClick={() =>
                void show(r.revision, r.revision, r.revision > 1 ? r.revision - 1 : null)
              }
            >
              Changes
            </button>
            {r.revision !== current ? (
              <>
                <button className="link" onClick={() => void show(r.revision, current, r.revision)}>
                  Compare with current
                </button>
                <button className="link" {...locked} onClick={() => void restore(r.revision)}>
                  Restore
                </button>
              </>
            ) : (
              <span className="muted small"> current</span>
            )}
            {preview?.anchor === r.revision ? (
              <RevisionPreview preview={preview} onClose={close} />
            ) : null}
          </li>
        ))}
      </ol>
    </aside>
  );
}
