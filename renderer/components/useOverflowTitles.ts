import { useEffect } from 'react';

/** Elements that cut long text with an ellipsis. */
const CUT = 'th, td, .vcell, .label-cut, .ellipsis, .diff-label, button, h3';

/**
 * Gives any cut label its full text as a tooltip the first time the pointer reaches it: one
 * listener for every table and picker, instead of a title on each of thousands of cells.
 * A title set by the view itself is kept.
 */
export function useOverflowTitles(): void {
  useEffect(() => {
    const onOver = (event: MouseEvent) => {
      const el = (event.target as Element | null)?.closest<HTMLElement>(CUT);
      if (!el || el.title || el.scrollWidth <= el.clientWidth) return;
      el.title = el.textContent ?? '';
    };
    document.addEventListener('mouseover', onOver);
    return () => document.removeEventListener('mouseover', onOver);
  }, []);
}
