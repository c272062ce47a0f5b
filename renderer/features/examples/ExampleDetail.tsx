import { memo, useEffect, useState } from 'react';
import type { RequestOutput } from '../../../shared/contract';
import { request } from '../../api';
import { plain } from '../../format';
import { shortPair } from '../../../shared/labels';
import { useApp } from '../../store';
import { highlight, searchPattern } from './highlight';
import { PinToFinding } from './PinToFinding';
import { TraceView } from './TraceView';
import { WordDiff } from './WordDiff';

type Detail = RequestOutput<'examples:detail'>;

function FieldsTable({ detail }: { detail: Detail }) {
  const a = detail.reference?.fields ?? {};
  const b = detail.candidate?.fields ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return (
    <table className="grid compact">
      <thead>
        <tr>
          <th>Field</th>
          <th>Reference</th>
          <th>Candidate</th>
          <th>Class</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => {
          const differs = JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null);
          return (
            <tr key={k} className={differs ? 'differs' : undefined}>
              <td className="mono">{k}</td>
              <td className="mono wrap">{plain(a[k])}</td>
              <td className="mono wrap">{plain(b[k])}</td>
              <td>
                {detail.classes[k] ? (
                  <span className={`class class-${detail.classes[k]}`}>
                    {detail.classes[k].replace('_', ' ')}
                  </span>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export const ExampleDetail = memo(function ExampleDetail({
  reportKey,
  pair,
  exampleId,
  search,
}: {
  reportKey: string;
  pair: number;
  exampleId: string;
  /** The table's search: its hits are marked here too. */
  search?: string;
}) {
  const key = `${reportKey}|${pair}|${exampleId}`;
  const [loaded, setLoaded] = useState<{ key: string; detail: Detail } | null>(null);
  const [raw, setRaw] = useState(false);
  const toast = useApp((s) => s.toast);
  const comparison = useApp((s) => s.report?.report.comparisons[pair]);
  useEffect(() => {
    let live = true;
    request('examples:detail', { reportKey, pair, exampleId })
      .then((detail) => {
        if (live) setLoaded({ key, detail });
      })
      .catch((e: Error) => toast('error', e.message));
    return () => {
      live = false;
    };
  }, [key, reportKey, pair, exampleId, toast]);
  const detail = loaded?.key === key ? loaded.detail : null;
  const experimentId = useApp((s) => s.experimentId);
  const runPair = useApp((s) => s.runPair);
  if (!detail) return <div className="detail muted pad">Loading {exampleId}…</div>;
  const names = shortPair(
    comparison?.reference.condition ?? 'reference',
    comparison?.candidate.condition ?? 'candidate',
  );
  const refLabel = names.reference;
  const candLabel = names.candidate;
  const hit = searchPattern(search);
  const inputsDiffer =
    detail.reference && detail.candidate && detail.reference.input !== detail.candidate.input;
  return (
    <div className="detail" data-testid="example-detail" tabIndex={-1}>
      <header className="detail-head">
        <h3 className="mono label-cut" title={detail.example_id}>
          {highlight(detail.example_id, searchPattern(search, true))}
        </h3>
        <span className="spacer" />
        {runPair || !experimentId ? null : (
          <PinToFinding
            experimentId={experimentId}
            reportKey={reportKey}
            pair={pair}
            exampleId={exampleId}
          />
        )}
        <label className="inline">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> raw
          record
        </label>
      </header>
      <section>
        <h4>
          Input
          {inputsDiffer ? (
            <span className="status status-differs"> differs between the runs</span>
          ) : null}
        </h4>
        {inputsDiffer ? (
          <WordDiff
            left={detail.reference!.input}
            right={detail.candidate!.input}
            leftLabel={refLabel}
            rightLabel={candLabel}
            hit={hit}
          />
        ) : (
          <pre className="text">
            {highlight(detail.reference?.input ?? detail.candidate?.input ?? '', hit)}
          </pre>
        )}
      </section>
      <section>
        <h4>Outputs</h4>
        {detail.reference && detail.candidate ? (
          <WordDiff
            left={detail.reference.output}
            right={detail.candidate.output}
            leftLabel={refLabel}
            rightLabel={candLabel}
            hit={hit}
          />
        ) : (
          <pre className="text">
            {highlight(detail.reference?.output ?? detail.candidate?.output ?? '', hit)}
          </pre>
        )}
        {detail.reference?.target || detail.candidate?.target ? (
          <p className="small">
            <span className="muted">target:</span>{' '}
            <span className="mono">{detail.reference?.target ?? detail.candidate?.target}</span>
          </p>
        ) : null}
        {detail.reference?.error || detail.candidate?.error ? (
          <p className="small status-differs">
            error: {detail.reference?.error ?? detail.candidate?.error}
          </p>
        ) : null}
      </section>
      <TraceView
        reportKey={reportKey}
        pair={pair}
        exampleId={exampleId}
        referenceLabel={refLabel}
        candidateLabel={candLabel}
      />
      <section>
        <h4>Fields</h4>
        <FieldsTable detail={detail} />
      </section>
      {raw ? (
        <section>
          <h4>Raw records</h4>
          <pre className="text mono small">
            {JSON.stringify({ reference: detail.reference, candidate: detail.candidate }, null, 2)}
          </pre>
        </section>
      ) : null}
    </div>
  );
});
