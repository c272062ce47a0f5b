import type { RevisionChange } from './revisionDiff';

/** A revision's changes as text: removed words struck through, added ones marked. */
export function RevisionDiff({ changes }: { changes: RevisionChange[] }) {
  if (changes.length === 0)
    return <p className="muted small">Nothing a reader sees changed in this revision.</p>;
  return (
    <div className="revision-diff" data-testid="revision-diff">
      {changes.map((change) => (
        <section key={change.label}>
          <h5>{change.label}</h5>
          {change.kind === 'text' ? (
            <p className="text">
              {change.parts.map((part, i) =>
                part.added ? (
                  <ins key={i} className="add">
                    {part.value}
                  </ins>
                ) : part.removed ? (
                  <del key={i} className="del">
                    {part.value}
                  </del>
                ) : (
                  <span key={i}>{part.value}</span>
                ),
              )}
            </p>
          ) : (
            <ul className="small">
              {change.removed.map((item) => (
                <li key={`-${item}`}>
                  <del className="del">{item}</del>
                </li>
              ))}
              {change.added.map((item) => (
                <li key={`+${item}`}>
                  <ins className="add">{item}</ins>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
