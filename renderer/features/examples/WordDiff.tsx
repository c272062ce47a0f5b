import { diffWordsWithSpace, type ChangeObject } from 'diff';
import { useMemo, useRef, useState } from 'react';
import { alignDiff, type DiffRow, type Piece } from './alignDiff';
import { highlight } from './highlight';

/** Above this a word diff costs more than it helps; both texts are still shown in full. */
const MAX_DIFF_CHARS = 200_000;

function wordDiff(a: string, b: string): ChangeObject<string>[] | null {
  if (a.length + b.length > MAX_DIFF_CHARS) return null;
  return diffWordsWithSpace(a, b, { timeout: 400 }) ?? null;
}

function Pieces({ pieces, mark, hit }: { pieces: Piece[]; mark: string; hit: RegExp | null }) {
  return pieces.map((p, i) => (
    <span key={i} className={p.changed ? mark : undefined}>
      {highlight(p.text, hit)}
    </span>
  ));
}

/**
 * Stepping from changed row to changed row: which change is current (-1 before the first
 * step), and a step that scrolls the grid to it.
 */
function useChangeSteps(rows: DiffRow[] | null) {
  const changes = useMemo(() => (rows ?? []).flatMap((r, i) => (r.changed ? [i] : [])), [rows]);
  const [current, setCurrent] = useState(-1);
  const grid = useRef<HTMLDivElement>(null);
  const go = (step: number) => {
    if (changes.length === 0) return;
    const next = (current + step + changes.length) % changes.length;
    setCurrent(next);
    grid.current
      ?.querySelector(`[data-row="${changes[next]}"]`)
      ?.scrollIntoView({ block: 'center' });
  };
  const focused = current >= 0 ? changes[current] : undefined;
  return { count: changes.length, current, focused, grid, go };
}

function DiffNav({
  count,
  current,
  go,
}: {
  count: number;
  current: number;
  go(step: number): void;
}) {
  return (
    <div className="diff-nav" role="group" aria-label="Changes">
      <button className="secondary" onClick={() => go(-1)} aria-label="Previous change">
        ↑ Previous
      </button>
      <button className="secondary" onClick={() => go(1)} aria-label="Next change">
        ↓ Next
      </button>
      <span className="muted small" data-testid="change-position">
        {current >= 0
          ? `change ${current + 1} of ${count}`
          : `${count} ${count === 1 ? 'change' : 'changes'}`}
      </span>
    </div>
  );
}

function rowClass(row: DiffRow, focused: boolean): string {
  if (!row.changed) return 'diff-row';
  return focused ? 'diff-row changed current' : 'diff-row changed';
}

/** One side's text, row by row in the shared grid; the whole text when there are no rows. */
function DiffSide({
  side,
  rows,
  text,
  n,
  focused,
  hit,
}: {
  side: 'left' | 'right';
  rows: DiffRow[] | null;
  text: string;
  /** How many grid rows the text spans. */
  n: number;
  focused: number | undefined;
  hit: RegExp | null;
}) {
  return (
    <pre
      className="text diff-side"
      data-testid={`diff-${side}`}
      style={{ gridRow: `2 / span ${n}` }}
    >
      {rows
        ? rows.map((row, i) => (
            <span key={i} data-row={i} className={rowClass(row, i === focused)}>
              <Pieces pieces={row[side]} mark={side === 'left' ? 'del' : 'add'} hit={hit} />
            </span>
          ))
        : highlight(text, hit)}
    </pre>
  );
}

/**
 * Two texts side by side, removed words marked on the left and added ones on the right, in rows
 * that both sides start together (so they stay level after an insertion), with buttons to step
 * from change to change. Text is always rendered as text (React escapes it): model output can
 * never become markup here.
 */
export function WordDiff({
  left,
  right,
  leftLabel,
  rightLabel,
  hit = null,
}: {
  left: string;
  right: string;
  leftLabel: string;
  rightLabel: string;
  /** Search hits to mark. */
  hit?: RegExp | null;
}) {
  const same = left === right;
  const rows = useMemo(() => {
    const parts = same ? null : wordDiff(left, right);
    return parts ? alignDiff(parts) : null;
  }, [left, right, same]);
  const { count, current, focused, grid, go } = useChangeSteps(rows);
  const n = rows?.length ?? 1;
  return (
    <div className="word-diff">
      {count > 0 ? <DiffNav count={count} current={current} go={go} /> : null}
      <div className="diff-grid" ref={grid} style={{ gridTemplateRows: `auto repeat(${n}, auto)` }}>
        <div className="diff-label" title={leftLabel}>
          {leftLabel}
        </div>
        <div className="diff-label" title={rightLabel}>
          {rightLabel}
        </div>
        {(['left', 'right'] as const).map((side) => (
          <DiffSide
            key={side}
            side={side}
            rows={rows}
            text={side === 'left' ? left : right}
            n={n}
            focused={focused}
            hit={hit}
          />
        ))}
      </div>
      {same ? <p className="muted small">The outputs are identical.</p> : null}
      {!same && !rows ? (
        <p className="muted small">
          These outputs are too long for a word-level diff; both are shown in full.
        </p>
      ) : null}
    </div>
  );
}
