import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import { request } from '../../api';
import { useApp } from '../../store';
import { RevisionDiff } from './RevisionDiff';
import { revisionChanges, type RevisionChange } from './revisionDiff';
import { useRequest } from '../../useRequest';

type Revisions = RequestOutput<'findings:revisions'>;

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
  const ask = useRequest();
  const [revisions, setRevisions] = useState<{ key: string; rows: Revisions } | null>(null);
  const [preview, setPreview] = useState<{
    /** The row clicked: the changes open under it, where the user is looking. */
    anchor: number;
    revision: number;
    against: number | null;
    changes: RevisionChange[];
  } | null>(null);
  const toast = useApp((s) => s.toast);
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
  const rows = revisions?.key === key ? revisions.rows : [];
  /** What `revision` changed from `against` (its predecessor unless asked otherwise). */
  const view = async (anchor: number, revision: number, against: number | null) => {
    try {
      const after = await request('findings:get', { findingId, revision });
      const before = against
        ? (await request('findings:get', { findingId, revision: against })).body
        : {
            ...after.body,
            question: '',
            claim: '',
            protocol: '',
            conclusion: '',
            limitations: [],
            pinned: [],
          };
      setPreview({ anchor, revision, against, changes: revisionChanges(before, after.body) });
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };
  const restore = async (revision: number) => {
    try {
      await request('findings:restore', { findingId, revision });
      toast('info', `Restored revision ${revision} as a new revision.`);
      setPreview(null);
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
                void view(r.revision, r.revision, r.revision > 1 ? r.revision - 1 : null)
              }
            >
              Changes
            </button>
            {r.revision !== current ? (
              <button className="link" onClick={() => void view(r.revision, current, r.revision)}>
                Compare with current
              </button>
            ) : null}
            {r.revision !== current ? (
              <button className="link" onClick={() => void restore(r.revision)}>
                Restore
              </button>
            ) : (
              <span className="muted small"> current</span>
            )}
            {preview?.anchor === r.revision ? (
              <div className="revision-preview">
                <header className="card-head">
                  <h4>
                    {preview.against
                      ? `Revision ${preview.revision} against #${preview.against}`
                      : `Revision ${preview.revision}, the first`}
                  </h4>
                  <span className="spacer" />
                  <button className="link" onClick={() => setPreview(null)}>
                    Close
                  </button>
                </header>
                <RevisionDiff changes={preview.changes} />
              </div>
            ) : null}
          </li>
        ))}
      </ol>
    </aside>
  );
}
