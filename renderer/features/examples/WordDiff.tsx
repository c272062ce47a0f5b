import { diffWordsWithSpace, type ChangeObject } from 'diff';
import { useMemo } from 'react';

/** Above this a word diff costs more than it helps; both texts are still shown in full. */
const MAX_DIFF_CHARS = 200_000;

function wordDiff(a: string, b: string): ChangeObject<string>[] | null {
  if (a.length + b.length > MAX_DIFF_CHARS) return null;
  return diffWordsWithSpace(a, b, { timeout: 400 }) ?? null;
}

/**
 * Two texts side by side, removed words marked on the left and added ones on the right. Text is
 * always rendered as text (React escapes it): model output can never become markup here.
 */
export function WordDiff({
  left,
  right,
  leftLabel,
  rightLabel,
}: {
  left: string;
  right: string;
  leftLabel: string;
  rightLabel: string;
}) {
  const parts = useMemo(() => (left === right ? [] : wordDiff(left, right)), [left, right]);
  const same = left === right;
  return (
    <div className="word-diff">
      <div className="diff-side">
        <div className="diff-label">{leftLabel}</div>
        <pre className="text" data-testid="diff-left">
          {same || !parts
            ? left
            : parts.map((p, i) =>
                p.added ? null : (
                  <span key={i} className={p.removed ? 'del' : undefined}>
                    {p.value}
                  </span>
                ),
              )}
        </pre>
      </div>
      <div className="diff-side">
        <div className="diff-label">{rightLabel}</div>
        <pre className="text" data-testid="diff-right">
          {same || !parts
            ? right
            : parts.map((p, i) =>
                p.removed ? null : (
                  <span key={i} className={p.added ? 'add' : undefined}>
                    {p.value}
                  </span>
                ),
              )}
        </pre>
      </div>
      {same ? <p className="muted small">The outputs are identical.</p> : null}
      {!same && !parts ? (
        <p className="muted small">
          These outputs are too long for a word-level diff; both are shown in full.
        </p>
      ) : null}
    </div>
  );
}
