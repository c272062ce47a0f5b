import { useCallback, useEffect, useState } from 'react';
import type { FindingRow } from '../../../shared/findings';
import { request } from '../../api';
import { useApp } from '../../store';
import { ExperimentPicker } from '../comparison/ExperimentPicker';
import { FindingEditor } from './FindingEditor';
import { withLatestRow } from './findingRows';
import { useRequest } from '../../useRequest';
import { useReadOnly } from '../../useReadOnly';

/** The experiment's findings, asked again when another one is opened (it may be new). */
function useFindingRows(experimentId: string | null, findingId: string | null): FindingRow[] {
  const ask = useRequest();
  const [findings, setFindings] = useState<{ experimentId: string; rows: FindingRow[] } | null>(
    null,
  );
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
  return findings?.experimentId === experimentId ? findings.rows : [];
}

/** Drafts a finding from the experiment's evidence and opens it. */
function useCreateFinding(experimentId: string | null) {
  const openFinding = useApp((s) => s.openFinding);
  const toast = useApp((s) => s.toast);
  const [creating, setCreating] = useState(false);
  const create = async () => {
    if (!experimentId) return;
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
  return { creating, create };
}

function NoFindingYet({ creating, onCreate }: { creating: boolean; onCreate(): void }) {
  const { readOnly, locked } = useReadOnly();
  return (
    <section className="empty-state">
      <h2>No finding yet</h2>
      <p>
        A finding starts from the evidence: the declared question and claim, a protocol written from
        the runs, the metrics with their intervals, and candidate limitations to accept or dismiss.
        The conclusion is yours.
      </p>
      <button className="primary" {...locked} disabled={readOnly || creating} onClick={onCreate}>
        Draft a finding for this experiment
      </button>
    </section>
  );
}

function FindingPicker({ rows, current }: { rows: FindingRow[]; current: string | null }) {
  const openFinding = useApp((s) => s.openFinding);
  return (
    <select
      aria-label="Finding"
      value={current ?? ''}
      onChange={(e) => openFinding(e.target.value)}
      disabled={rows.length === 0}
    >
      {/* Without an option the disabled picker was an empty box beside the experiment. */}
      {rows.length === 0 ? <option value="">No finding yet</option> : null}
      {rows.map((r) => (
        <option key={r.id} value={r.id}>
          {r.title} (rev {r.currentRevision}){r.syncState ? ` · ${r.syncState}` : ''}
        </option>
      ))}
    </select>
  );
}

export function FindingsView() {
  const experimentId = useApp((s) => s.experimentId);
  const runPair = useApp((s) => s.runPair);
  const findingId = useApp((s) => s.findingId);
  const [latest, setLatest] = useState<FindingRow | null>(null);
  const onRow = useCallback((row: FindingRow) => setLatest(row), []);
  const rows = withLatestRow(useFindingRows(experimentId, findingId), latest);
  const { creating, create } = useCreateFinding(experimentId);
  const { readOnly, locked } = useReadOnly();

  if (!experimentId) return <p className="muted pad">Pick an experiment in the library.</p>;
  if (runPair)
    return (
      <p className="muted pad">
        Findings belong to an experiment: two runs picked in the library have none. Open an
        experiment from the library to write one.
      </p>
    );
  const current = rows.some((r) => r.id === findingId) ? findingId : (rows[0]?.id ?? null);
  return (
    <section className="findings">
      <header className="toolbar">
        <h2>Findings</h2>
        <ExperimentPicker />
        <FindingPicker rows={rows} current={current} />
        <span className="spacer" />
        <button
          className="primary"
          {...locked}
          disabled={readOnly || creating}
          onClick={() => void create()}
        >
          {creating ? 'Drafting from the evidence…' : 'New finding'}
        </button>
      </header>
      {current ? (
        <FindingEditor findingId={current} onRow={onRow} />
      ) : (
        <NoFindingYet creating={creating} onCreate={() => void create()} />
      )}
    </section>
  );
}
