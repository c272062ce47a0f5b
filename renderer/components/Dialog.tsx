import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal question before an action that changes or removes what the user made: the native
 * dialog element traps focus and closes on Escape, which counts as "Cancel".
 */
export function Dialog({
  title,
  children,
  confirm,
  danger = false,
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  /** The confirm button's label; without one the dialog only informs. */
  confirm?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm?(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h3>{title}</h3>
      <div className="dialog-body">{children}</div>
      <footer className="dialog-actions">
        <button className="secondary" onClick={onCancel}>
          {confirm ? 'Cancel' : 'Close'}
        </button>
        {confirm ? (
          <button
            className={danger ? 'primary danger' : 'primary'}
            disabled={busy}
            onClick={onConfirm}
            autoFocus
          >
            {confirm}
          </button>
        ) : null}
      </footer>
    </dialog>
  );
}
