import { useEffect, useState } from 'react';

/**
 * Whether the rows beyond the view (the overscan) may render: once the rows in view have been on
 * screen for a frame. The first page of a query mounts every row at once, and each new row costs
 * ~1 ms of style, layout and paint on a slow machine: with the overscan (out of view) in the same
 * frame it made one task over 50 ms. Rows are told apart by their first row: a new query brings
 * a new one, a page appended below or a scroll does not, so scrolling keeps its overscan.
 */
export function useOverscanShown<Row>(head: Row | undefined): boolean {
  const [settled, setSettled] = useState(head);
  useEffect(() => {
    if (head === settled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the frame that shows the rows in view, not before it: a task queued now could run
    // before that frame and bring the overscan into it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setSettled(head), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [head, settled]);
  return head === settled;
}
