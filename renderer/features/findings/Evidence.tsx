import type { Pin, SnapshotView } from '../../../shared/findings';
import { snapshotLine } from './evidenceLine';
import { WordDiff } from '../examples/WordDiff';
import { ReproductionTable } from '../comparison/ReproductionTable';
import { EvidenceMetrics } from './EvidenceMetrics';

/** The frozen numbers the finding cites: never recomputed here, only refreshed on request. */
export function Evidence({ snapshot }: { snapshot: SnapshotView }) {
  const report = snapshot.report;
  return (
    <div className="evidence">
      <p className="muted small">{snapshotLine(snapshot)}</p>
      {report.comparisons.map((c) => (
        <section key={`${c.candidate.condition}-${c.reference.condition}`} className="card">
          <h4>
            {c.candidate.condition} <span className="muted">vs</span> {c.reference.condition}
          </h4>
          <EvidenceMetrics comparison={c} noise={report.noise_floor} />
        </section>
      ))}
      {report.reproduction ? (
        <section className="card">
          <h4>Paper vs observed</h4>
          <ReproductionTable reproduction={report.reproduction} />
        </section>
      ) : null}
    </div>
  );
}

export function PinnedExamples({
  pins,
  onNote,
  onRemove,
}: {
  pins: Pin[];
  onNote(index: number, note: string): void;
  onRemove(index: number): void;
}) {
  if (pins.length === 0) {
    return (
      <p className="muted small">
        Pin examples from the Examples view to show them here with both outputs.
      </p>
    );
  }
  return (
    <div className="pins">
      {pins.map((pin, i) => (
        <article key={`${pin.reportKey}-${pin.pair}-${pin.exampleId}`} className="card pin">
          <header className="card-head">
            <h4 className="mono">{pin.exampleId}</h4>
            <span className="muted small">
              {pin.candidate?.condition ?? '—'} vs {pin.reference?.condition ?? '—'}
            </span>
            <span className="spacer" />
            <button className="link" onClick={() => onRemove(i)}>
              Unpin
            </button>
          </header>
          <pre className="text">{pin.reference?.input ?? pin.candidate?.input ?? ''}</pre>
          <WordDiff
            left={pin.reference?.output ?? ''}
            right={pin.candidate?.output ?? ''}
            leftLabel={pin.reference?.condition ?? 'reference'}
            rightLabel={pin.candidate?.condition ?? 'candidate'}
          />
          <input
            aria-label="Note"
            placeholder="A note on why this example matters"
            value={pin.note}
            onChange={(e) => onNote(i, e.target.value)}
          />
        </article>
      ))}
    </div>
  );
}
