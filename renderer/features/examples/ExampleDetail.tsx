import { memo, useEffect, useState } from 'react';
import { request } from '../../api';
import { BreakableText } from '../../components/BreakableText';
import { plain } from '../../format';
import { shortPair } from '../../../shared/labels';
import { useApp } from '../../store';
import { highlight, searchPattern } from './highlight';
import { PinToFinding } from './PinToFinding';
import { InputSection, OutputsSection, type Detail } from './DetailTexts';
import { TraceView } from './TraceView';

function FieldsTable({ detail }: { detail: Detail }) {
  const a = detail.reference?.fields ?? {};
  const b = detail.candidate?.fields ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return (
    <table className="grid compact detail-fields">
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
              <td className="mono field-name">
                <BreakableText text={k} />
              </td>
              <td className="mono field-value" data-label="Reference">
                {plain(a[k])}
              </td>
              <td className="mono field-value" data-label="Candidate">
                {plain(b[k])}
              </td>
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

/** The example's two records for this pair; null until the answer for this very key arrives. */
function useExampleDetail(reportKey: string, pair: number, exampleId: string): Detail | null {
  const key = `${reportKey}|${pair}|${exampleId}`;
  const [loaded, setLoaded] = useState<{ key: string; detail: Detail } | null>(null);
  const toast = useApp((s) => s.toast);
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
  return loaded?.key === key ? loaded.detail : null;
}

const CANNOT_PIN =
  'A text of this example cannot be read from its source: re-index the folder to pin it.';

/** Pinning is for an experiment's comparison, and only of an example whose texts can be read. */
function PinButton({
  detail,
  reportKey,
  pair,
  exampleId,
}: {
  detail: Detail;
  reportKey: string;
  pair: number;
  exampleId: string;
}) {
  const experimentId = useApp((s) => s.experimentId);
  const runPair = useApp((s) => s.runPair);
  if (runPair || !experimentId) return null;
  // A pin freezes both texts as evidence; the core refuses one it cannot read.
  if (detail.reference?.unavailable || detail.candidate?.unavailable)
    return (
      <button className="secondary" disabled title={CANNOT_PIN}>
        Pin to finding…
      </button>
    );
  return (
    <PinToFinding
      experimentId={experimentId}
      reportKey={reportKey}
      pair={pair}
      exampleId={exampleId}
    />
  );
}

function DetailHead({
  detail,
  reportKey,
  pair,
  exampleId,
  search,
  raw,
  onRaw,
}: {
  detail: Detail;
  reportKey: string;
  pair: number;
  exampleId: string;
  search: string | undefined;
  raw: boolean;
  onRaw(raw: boolean): void;
}) {
  return (
    <header className="detail-head">
      <h3 className="mono">{highlight(detail.example_id, searchPattern(search, true))}</h3>
      <PinButton detail={detail} reportKey={reportKey} pair={pair} exampleId={exampleId} />
      <label className="inline">
        <input type="checkbox" checked={raw} onChange={(e) => onRaw(e.target.checked)} /> raw record
      </label>
    </header>
  );
}

export interface ExampleDetailProps {
  reportKey: string;
  pair: number;
  exampleId: string;
  /** The table's search: its hits are marked here too. */
  search?: string;
}

export const ExampleDetail = memo(function ExampleDetail({
  reportKey,
  pair,
  exampleId,
  search,
}: ExampleDetailProps) {
  const detail = useExampleDetail(reportKey, pair, exampleId);
  const [raw, setRaw] = useState(false);
  const comparison = useApp((s) => s.report?.report.comparisons[pair]);
  if (!detail) return <div className="detail muted pad">Loading {exampleId}…</div>;
  const labels = shortPair(
    comparison?.reference.condition ?? 'reference',
    comparison?.candidate.condition ?? 'candidate',
  );
  const hit = searchPattern(search);
  return (
    <div className="detail" data-testid="example-detail" tabIndex={-1}>
      <DetailHead
        detail={detail}
        reportKey={reportKey}
        pair={pair}
        exampleId={exampleId}
        search={search}
        raw={raw}
        onRaw={setRaw}
      />
      <InputSection detail={detail} labels={labels} hit={hit} />
      <OutputsSection detail={detail} labels={labels} hit={hit} />
      <TraceView
        reportKey={reportKey}
        pair={pair}
        exampleId={exampleId}
        referenceLabel={labels.reference}
        candidateLabel={labels.candidate}
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
