import { useReadOnly } from '../useReadOnly';

/**
 * Said once, where every view shows it: the disabled buttons alone leave a reviewer guessing
 * whether something is broken.
 */
export function ReadOnlyNotice() {
  const { readOnly } = useReadOnly();
  if (!readOnly) return null;
  return (
    <div className="read-only-notice" role="note" aria-label="Read-only session">
      <span className="read-only-badge">Read-only</span>
      <span className="muted small">
        You can browse this library; adding, comparing and editing need an editor.
      </span>
    </div>
  );
}
