import { useCallback, useEffect, useRef, useState } from 'react';
import { editableBody } from '../../../shared/finding-body';
import type { EditableBody, OpenedFinding, SavedRevision } from '../../../shared/findings';
import { request, RequestError } from '../../api';

/** How long a failed save waits before trying again on its own. */
const RETRY_AFTER_MS = 3000;

export type SaveState = 'saved' | 'editing' | 'saving' | 'conflict' | 'error';

/**
 * The editor's draft and its autosave: every change is saved 800 ms after the last keystroke
 * (within the one second the issue allows), each save a new revision on the one the editor
 * started from. A save that finds a newer revision stops with "conflict" instead of overwriting it;
 * any other failure is retried every few seconds until it goes through.
 */
export function useAutosave(initial: OpenedFinding, onSaved: (saved: SavedRevision) => void) {
  const [draft, setDraft] = useState<EditableBody>(() => editableBody(initial));
  const [title, setTitle] = useState(initial.finding.title);
  const [state, setState] = useState<SaveState>('saved');
  const [error, setError] = useState<string | null>(null);
  const base = useRef(initial.revision);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ draft, title });

  const retry = useRef<(() => void) | null>(null);

  const save = useCallback(async () => {
    timer.current = null;
    setState('saving');
    try {
      const saved = await request('findings:save', {
        findingId: initial.finding.id,
        baseRevision: base.current,
        title: latest.current.title,
        body: latest.current.draft,
      });
      base.current = saved.revision;
      setState(timer.current ? 'editing' : 'saved');
      onSaved(saved);
    } catch (e) {
      const conflict = e instanceof RequestError && e.code === 'conflict';
      const refused = e instanceof RequestError && e.code === 'forbidden';
      setState(conflict ? 'conflict' : 'error');
      setError((e as Error).message);
      // A library busy with a long write (a large file being indexed) must not strand the draft
      // until the next keystroke: try again, unless an edit has already scheduled a save. A
      // read-only session's save is refused every time: asking again would never end.
      if (!conflict && !refused && !timer.current)
        timer.current = setTimeout(() => retry.current?.(), RETRY_AFTER_MS);
    }
  }, [initial.finding.id, onSaved]);
  useEffect(() => {
    retry.current = () => void save();
  }, [save]);

  const schedule = useCallback(() => {
    setState('editing');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), 800);
  }, [save]);

  const update = useCallback(
    (patch: Partial<EditableBody>) => {
      setDraft((d) => {
        const next = { ...d, ...patch };
        latest.current = { ...latest.current, draft: next };
        return next;
      });
      schedule();
    },
    [schedule],
  );

  const rename = useCallback(
    (next: string) => {
      setTitle(next);
      latest.current = { ...latest.current, title: next };
      schedule();
    },
    [schedule],
  );

  // Leaving the editor saves what is pending rather than dropping the last second of typing.
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        void save();
      }
    },
    [save],
  );

  return { draft, title, state, error, update, rename };
}
