import { useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import type { Trace } from '../../../shared/trace';
import { request } from '../../api';

type Traces = RequestOutput<'examples:trace'>;

function Transcript({ label, trace }: { label: string; trace: Trace | null }) {
  return (
    <div className="trace-side">
      <div className="diff-label" title={label}>
        {label}
      </div>
      {trace === null ? (
        <p className="muted small">No transcript recorded.</p>
      ) : (
        trace.map((section) => (
          <details key={section.title} className="trace-section" open={section.title !== 'Events'}>
            <summary>
              {section.title} <span className="muted small">{section.steps.length}</span>
            </summary>
            <ol className="trace-steps">
              {section.steps.map((step, i) => (
                <li key={i} data-role={step.label.split(' ')[0]}>
                  <div className="trace-label mono small">{step.label}</div>
                  <pre className="text small">{step.text}</pre>
                </li>
              ))}
            </ol>
          </details>
        ))
      )}
    </div>
  );
}

/**
 * The sample as it happened — an Inspect sample's messages and events, a REPS sample's model
 * calls — for both sides, as plain text. Shown only when a side recorded one.
 */
export function TraceView({
  reportKey,
  pair,
  exampleId,
  referenceLabel,
  candidateLabel,
}: {
  reportKey: string;
  pair: number;
  exampleId: string;
  referenceLabel: string;
  candidateLabel: string;
}) {
  const key = `${reportKey}|${pair}|${exampleId}`;
  const [loaded, setLoaded] = useState<{ key: string; traces: Traces } | null>(null);
  useEffect(() => {
    let live = true;
    request('examples:trace', { reportKey, pair, exampleId })
      .then((traces) => {
        if (live) setLoaded({ key, traces });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [key, reportKey, pair, exampleId]);
  const traces = loaded?.key === key ? loaded.traces : null;
  if (!traces || (traces.reference === null && traces.candidate === null)) return null;
  return (
    <section data-testid="trace-view">
      <h4>Transcript</h4>
      <div className="trace-columns">
        <Transcript label={referenceLabel} trace={traces.reference} />
        <Transcript label={candidateLabel} trace={traces.candidate} />
      </div>
    </section>
  );
}
