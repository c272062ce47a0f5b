import { useEffect, useState } from 'react';
import type { ComparisonView } from '../../../shared/report-view';
import type { RequestOutput } from '../../../shared/contract';
import { request } from '../../api';
import { count } from '../../format';
import { useApp } from '../../store';
import { inputLine, sharedOpening } from '../../../shared/input-opening';

type Row = RequestOutput<'examples:page'>['rows'][number];

/** How many changed examples the comparison page shows before "show all". */
export const CHANGED_SHOWN = 5;

const INPUT_CHARS = 140;

function changes(row: Row): { criterion: string; change: string }[] {
  return Object.entries(row.classes)
    .filter(([, c]) => c !== 'unchanged')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([criterion, change]) => ({ criterion, change }));
}

/**
 * The first examples whose behaviour changed in this pair, on the comparison page itself, each
 * with the criteria that moved; a click opens the explorer on it, "show all" on every one.
 */
export function ChangedExamples({
  comparison,
  pair,
  reportKey,
}: {
  comparison: ComparisonView;
  pair: number;
  reportKey: string;
}) {
  const open = useApp((s) => s.openExamples);
  const total = comparison.examples.behavior_changed;
  const key = `${reportKey}:${pair}`;
  // Rows are kept with the pair they belong to, so another pair shows "Loading…", not stale rows.
  const [loaded, setLoaded] = useState<{ key: string; rows: Row[] } | null>(null);
  const rows = loaded?.key === key ? loaded.rows : null;
  const opening = sharedOpening(rows?.map((r) => r.input) ?? []);

  useEffect(() => {
    let live = true;
    if (total === 0) return;
    request('examples:page', {
      reportKey,
      pair,
      filter: { behaviorChanged: true },
      limit: CHANGED_SHOWN,
      countTotal: false,
    })
      .then((page) => live && setLoaded({ key: `${reportKey}:${pair}`, rows: page.rows }))
      .catch(() => live && setLoaded({ key: `${reportKey}:${pair}`, rows: [] }));
    return () => {
      live = false;
    };
  }, [reportKey, pair, total]);

  return (
    <section className="card changed-examples" aria-label="Changed examples">
      <header className="card-head">
        <h3>Changed examples</h3>
        <span className="muted small">
          {count(total)} of {count(comparison.coverage.paired)} paired examples changed behaviour
        </span>
        <span className="spacer" />
        {total > 0 ? (
          <button className="link" onClick={() => open(pair, { behaviorChanged: true })}>
            Show all {count(total)} in the explorer
          </button>
        ) : null}
      </header>
      {total === 0 ? (
        <p className="muted">No paired example changed behaviour.</p>
      ) : rows === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul className="changed-list">
          {rows.map((row) => (
            <li key={row.example_id}>
              <button
                className="link mono"
                title="Open this example in the explorer"
                onClick={() => open(pair, { behaviorChanged: true, search: row.example_id })}
              >
                {row.example_id}
              </button>
              <span className="changes">
                {changes(row).map((c) => (
                  <span key={c.criterion} className={`chip class-${c.change}`}>
                    {c.criterion}: {c.change.replace('_', ' ')}
                  </span>
                ))}
              </span>
              <span className="muted small ellipsis" title={row.input}>
                {inputLine(row.input, opening, INPUT_CHARS)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
