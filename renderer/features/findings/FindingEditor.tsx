import { useCallback, useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import type {
  EditableBody,
  FindingRow,
  OpenedFinding,
  Pin,
  SavedRevision,
} from '../../../shared/findings';
import { request } from '../../api';
import { downloadText, interval, signed } from '../../format';
import { useApp } from '../../store';
import { Evidence, PinnedExamples } from './Evidence';
import { History } from './History';
import { Limitations } from './Limitations';
import { shownPins, withoutPin, withPinNote } from './pins';
import { useAutosave, type SaveState } from './useAutosave';
import { useRequest } from '../../useRequest';
import { READ_ONLY_TITLE, useReadOnly } from '../../useReadOnly';

type Staleness = RequestOutput<'findings:staleness'>;

const saveLabel: Record<SaveState, string> = {
  saved: 'All changes saved',
  editing: 'Editing…',
  saving: 'Saving…',
  conflict: 'Changed elsewhere: reload to continue',
  error: 'Not saved',
};

function StaleBanner({ staleness, onRefresh }: { staleness: Staleness; onRefresh(): void }) {
  if (!staleness.stale) return null;
  return (
    <div className="banner" role="alert">
      <div>
        The runs this finding cites have changed since its numbers were taken (
        {staleness.runs.map((r) => `${r.condition}: ${r.change}`).join(', ')}). The finding keeps
        its numbers until you refresh them.
      </div>
      {staleness.changes.length > 0 ? (
        <ul className="small">
          {staleness.changes.map((c) => (
            <li key={`${c.comparison}-${c.metric}`}>
              {c.comparison} · {c.metric}: {signed(c.before?.difference)} {interval(c.before?.ci95)}{' '}
              → {signed(c.after?.difference)} {interval(c.after?.ci95)}
            </li>
          ))}
        </ul>
      ) : null}
      <button className="secondary" onClick={onRefresh}>
        Refresh the numbers (new revision)
      </button>
    </div>
  );
}

/**
 * Whether the runs the finding cites changed: asked when the finding is loaded and after each
 * index pass, the only times the answer can change. A save carries the evidence over, so asking
 * after each autosave would read the snapshot and the current report (~16 MB of JSON at a
 * million pairs) for the same answer.
 */
function useStaleness(findingId: string): Staleness | null {
  const ask = useRequest();
  const library = useApp((s) => s.summary);
  const [staleness, setStaleness] = useState<Staleness | null>(null);
  useEffect(() => {
    ask('findings:staleness', { findingId }, setStaleness);
  }, [ask, findingId, library]);
  return staleness;
}

function EditorHeader({
  findingId,
  title,
  onRename,
  state,
  revision,
  onReload,
}: {
  findingId: string;
  title: string;
  onRename(title: string): void;
  state: SaveState;
  revision: number;
  onReload(): void;
}) {
  const run = useRequest();
  const { locked } = useReadOnly();
  const exportAs = (format: 'markdown' | 'html') =>
    run('findings:export', { findingId, format }, (file) =>
      downloadText(
        file.filename,
        file.content,
        format === 'html' ? 'text/html;charset=utf-8' : 'text/markdown;charset=utf-8',
      ),
    );
  return (
    <header className="card-head">
      <input
        className="title-input"
        aria-label="Title"
        {...locked}
        value={title}
        onChange={(e) => onRename(e.target.value)}
      />
      <span className={`save-state save-${state}`} role="status" data-testid="save-state">
        {saveLabel[state]}
        {state === 'saved' ? ` · revision ${revision}` : ''}
      </span>
      {state === 'conflict' ? (
        <button className="secondary" onClick={onReload}>
          Reload
        </button>
      ) : null}
      <span className="spacer" />
      <button className="secondary" onClick={() => exportAs('markdown')}>
        Export Markdown
      </button>
      <button className="secondary" onClick={() => exportAs('html')}>
        Export HTML
      </button>
    </header>
  );
}

/** The researcher's statement of the experiment: what was asked, claimed and done. */
function StatementFields({
  draft,
  update,
}: {
  draft: EditableBody;
  update(patch: Partial<EditableBody>): void;
}) {
  return (
    <>
      <label className="field">
        <span>Question</span>
        <textarea
          rows={2}
          value={draft.question}
          onChange={(e) => update({ question: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Claim</span>
        <textarea
          rows={2}
          value={draft.claim}
          onChange={(e) => update({ claim: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Protocol</span>
        <textarea
          rows={8}
          className="mono"
          value={draft.protocol}
          onChange={(e) => update({ protocol: e.target.value })}
        />
      </label>
    </>
  );
}

function PinnedSection({
  saved,
  draft,
  update,
}: {
  saved: Pin[];
  draft: EditableBody;
  update(patch: Partial<EditableBody>): void;
}) {
  const pins = shownPins(saved, draft.pinned);
  return (
    <section>
      <h3>Pinned examples</h3>
      <PinnedExamples
        pins={pins}
        onNote={(i, note) => update({ pinned: withPinNote(draft.pinned, pins[i]!, note) })}
        onRemove={(i) => update({ pinned: withoutPin(draft.pinned, pins[i]!) })}
      />
    </section>
  );
}

/**
 * The evidence and the pinned texts are those loaded: a save carries them over (it can only drop
 * a pin or change its note, which the draft shows), so it answers with its revision alone.
 */
function Editor({
  view,
  onReload,
  onSaved: savedRow,
}: {
  view: OpenedFinding;
  onReload(): void;
  onSaved(row: FindingRow): void;
}) {
  const [revision, setRevision] = useState(view.revision);
  const onSaved = useCallback(
    (saved: SavedRevision) => {
      setRevision(saved.revision);
      savedRow(saved.finding);
    },
    [savedRow],
  );
  const { draft, title, state, error, update, rename } = useAutosave(view, onSaved);
  const toast = useApp((s) => s.toast);
  const { readOnly } = useReadOnly();
  const findingId = view.finding.id;
  const staleness = useStaleness(findingId);
  const refresh = async () => {
    try {
      await request('findings:refresh', { findingId });
      onReload();
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  return (
    <div className="finding-layout">
      <article className="finding-editor">
        <EditorHeader
          findingId={findingId}
          title={title}
          onRename={rename}
          state={state}
          revision={revision}
          onReload={onReload}
        />
        {error && state === 'error' ? <p className="status-differs small">{error}</p> : null}
        {/* Disabled as a whole for a read-only session; the header's exports stay. */}
        <fieldset
          className="finding-fields"
          disabled={readOnly}
          title={readOnly ? READ_ONLY_TITLE : undefined}
        >
          {staleness ? (
            <StaleBanner staleness={staleness} onRefresh={() => void refresh()} />
          ) : null}
          <StatementFields draft={draft} update={update} />
          <section>
            <h3>Evidence</h3>
            <Evidence snapshot={view.body.snapshot} />
          </section>
          <section>
            <h3>Limitations</h3>
            <Limitations
              items={draft.limitations}
              onChange={(limitations) => update({ limitations })}
            />
          </section>
          <PinnedSection saved={view.body.pinned} draft={draft} update={update} />
          <label className="field">
            <span>Conclusion — yours alone; Pairwise never writes it</span>
            <textarea
              rows={6}
              aria-label="Conclusion"
              placeholder="What do these results show, and what do they not?"
              value={draft.conclusion}
              onChange={(e) => update({ conclusion: e.target.value })}
            />
          </label>
        </fieldset>
      </article>
      <History findingId={findingId} current={revision} onRestored={onReload} />
    </div>
  );
}

/**
 * Loads a finding and keeps the editor mounted per loaded revision (a reload starts afresh).
 * `onRow` hears the finding's row as each load and save leaves it (title, revision, sync state).
 */
export function FindingEditor({
  findingId,
  onRow,
}: {
  findingId: string;
  onRow(row: FindingRow): void;
}) {
  const [view, setView] = useState<OpenedFinding | null>(null);
  const [reloads, setReloads] = useState(0);
  const toast = useApp((s) => s.toast);
  useEffect(() => {
    let live = true;
    request('findings:get', { findingId })
      .then((v) => {
        if (!live) return;
        setView(v);
        onRow(v.finding);
      })
      .catch((e: Error) => toast('error', e.message));
    return () => {
      live = false;
    };
  }, [findingId, reloads, toast, onRow]);
  if (!view || view.finding.id !== findingId)
    return <p className="muted pad">Loading the finding…</p>;
  return (
    <Editor
      key={`${view.finding.id}-${view.revision}-${reloads}`}
      view={view}
      onReload={() => setReloads((n) => n + 1)}
      onSaved={onRow}
    />
  );
}
