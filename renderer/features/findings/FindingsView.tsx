import { useEffect, useState } from 'react';
import type { FindingRow } from '../../../shared/findings';
import { request } from '../../api';
import { useApp } from '../../store';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { FindingEditor } from './FindingEditor';
import { useRequest } from '../../useRequest';

export function FindingsView() {
  const ask = useRequest();
  const experimentId = useApp((s) => s.experimentId);
  const runPair = useApp((s) => s.runPair);
  const findingId = useApp((s) => s.findingId);
  const openFinding = useApp((s) => s.openFinding);
  const toast = useApp((s) => s.toast);
  const [findings, setFindings] = useState<{ experimentId: string; rows: FindingRow[] } | null>(
    null,
  );
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    if (!experimentId) return;
    let live = true;
    ask('findings:list', { experimentId }, (rows) => {
      if (live) setFindings({ experimentId, rows });
    });
    return () => {
      live = false;
    };
  }, [ask, experimentId, findingId]);

  if (!experimentId) return <p className="muted pad">Pick an experiment in the library.</p>;
  if (runPair)
    return (
      <p className="muted pad">
        Findings belong to an experiment: two runs picked in the library have none. Open an
        experiment from the library to write one.
      </p>
    );
  const rows = findings?.experimentId === experimentId ? findings.rows : [];
  const create = async () => {
    setCreating(true);
    try {
      const view = await request('findings:create', { experimentId });
      openFinding(view.finding.id);
    } catch (e) {
      toast('error', (e as Error).message);
    } finally {
      setCreating(false);
    }
  };
  const current = rows.some((r) => r.id === findingId) ? findingId : (rows[0]?.id ?? null);
  return (
    <section className="findings">
      <header className="toolbar">
        <h2>Findings</h2>
        <ExperimentPicker />
        <select
          aria-label="Finding"
          value={current ?? ''}
          onChange={(e) => openFinding(e.target.value)}
          disabled={rows.length === 0}
        >
          {rows.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title} (rev {r.currentRevision}){r.syncState ? ` · ${r.syncState}` : ''}
            </option>
          ))}
        </select>
        <span className="spacer" />
        <button className="primary" disabled={creating} onClick={() => void create()}>
          {creating ? 'Drafting from the evidence…' : 'New finding'}
        </button>
      </header>
      {current ? (
        <FindingEditor findingId={current} />
      ) : (
        <section className="empty-state">
          <h2>No finding yet</h2>
          <p>
            A finding starts from the evidence: the declared question and claim, a protocol written
            from the runs, the metrics with their intervals, and candidate limitations to accept or
            dismiss. The conclusion is yours.
          </p>
          <button className="primary" disabled={creating} onClick={() => void create()}>
            Draft a finding for this experiment
          </button>
        </section>
      )}
    </section>
  );
}
