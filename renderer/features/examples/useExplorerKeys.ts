import { useEffect, type RefObject } from 'react';

/**
 * The explorer's keys: Ctrl+F (⌘F) to the search, Ctrl+E to export this view, j/k or the
 * arrows to step through the rows (not while typing), Enter into the detail pane.
 */
export function useExplorerKeys(
  searchRef: RefObject<HTMLInputElement | null>,
  move: (delta: number) => void,
  exportView: () => void,
): void {
  // Subscribed again on every render, so the handler always steps from the current selection.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      const typing =
        target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA';
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        searchRef.current?.focus();
        return;
      }
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'e') {
        event.preventDefault();
        exportView();
        return;
      }
      if (typing) return;
      if (event.key === 'j' || event.key === 'ArrowDown') {
        event.preventDefault();
        move(1);
      } else if (event.key === 'k' || event.key === 'ArrowUp') {
        event.preventDefault();
        move(-1);
      } else if (event.key === 'Enter') {
        document.querySelector<HTMLElement>('[data-testid="example-detail"]')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}
