import type { RequestOutput } from '../../../shared/contract';
import { highlight } from './highlight';
import { UnavailableNote } from './unavailable';
import { WordDiff } from './WordDiff';

export type Detail = RequestOutput<'examples:detail'>;
type Side = NonNullable<Detail['reference']>;

/** The two sides' short names, as the diffs and the trace label their columns. */
export interface SideLabels {
  reference: string;
  candidate: string;
}

/** What a section of the detail shows: the pair's two examples, their labels, the search's hits. */
export interface SectionProps {
  detail: Detail;
  labels: SideLabels;
  hit: RegExp | null;
}

type Pick = (side: Side) => string;

/** One side's text, or why it cannot be read: never an empty text standing in for it. */
function SideText({ side, pick, hit }: { side: Side; pick: Pick; hit: RegExp | null }) {
  return side.unavailable ? (
    <UnavailableNote reason={side.unavailable} />
  ) : (
    <pre className="text">{highlight(pick(side), hit)}</pre>
  );
}

/**
 * Both sides' texts, at least one of which could not be read: side by side under their labels
 * with no word diff (a diff against a missing text would mark the whole other text as changed).
 * When neither could be read for the same reason, that is said once.
 */
function Unreadable({
  reference,
  candidate,
  labels,
  pick,
  hit,
}: {
  reference: Side;
  candidate: Side;
  labels: SideLabels;
  pick: Pick;
  hit: RegExp | null;
}) {
  if (reference.unavailable && reference.unavailable === candidate.unavailable)
    return <UnavailableNote reason={reference.unavailable} />;
  return (
    <div className="diff-grid">
      <div className="diff-label" title={labels.reference}>
        {labels.reference}
      </div>
      <div className="diff-label" title={labels.candidate}>
        {labels.candidate}
      </div>
      <SideText side={reference} pick={pick} hit={hit} />
      <SideText side={candidate} pick={pick} hit={hit} />
    </div>
  );
}

const input: Pick = (s) => s.input;
const output: Pick = (s) => s.output;

export function InputSection({ detail, labels, hit }: SectionProps) {
  const { reference, candidate } = detail;
  const unreadable = Boolean(reference?.unavailable || candidate?.unavailable);
  const differ = reference && candidate && !unreadable && reference.input !== candidate.input;
  const only = reference ?? candidate;
  return (
    <section>
      <h4>
        Input
        {differ ? <span className="status status-differs"> differs between the runs</span> : null}
      </h4>
      {reference && candidate && unreadable ? (
        <Unreadable
          reference={reference}
          candidate={candidate}
          labels={labels}
          pick={input}
          hit={hit}
        />
      ) : differ ? (
        <WordDiff
          left={reference.input}
          right={candidate.input}
          leftLabel={labels.reference}
          rightLabel={labels.candidate}
          hit={hit}
        />
      ) : only ? (
        <SideText side={only} pick={input} hit={hit} />
      ) : (
        <pre className="text" />
      )}
    </section>
  );
}

export function OutputsSection({ detail, labels, hit }: SectionProps) {
  const { reference, candidate } = detail;
  const only = reference ?? candidate;
  return (
    <section>
      <h4>Outputs</h4>
      {reference && candidate ? (
        reference.unavailable || candidate.unavailable ? (
          <Unreadable
            reference={reference}
            candidate={candidate}
            labels={labels}
            pick={output}
            hit={hit}
          />
        ) : (
          <WordDiff
            left={reference.output}
            right={candidate.output}
            leftLabel={labels.reference}
            rightLabel={labels.candidate}
            hit={hit}
          />
        )
      ) : only ? (
        <SideText side={only} pick={output} hit={hit} />
      ) : (
        <pre className="text" />
      )}
      <PerSide
        name="target"
        both="target"
        reference={reference?.target}
        candidate={candidate?.target}
        labels={labels}
      />
      <PerSide
        name="error"
        both="error in both runs"
        className="status-differs"
        reference={reference?.error}
        candidate={candidate?.error}
        labels={labels}
      />
    </section>
  );
}

/**
 * A value each run may have (a target, an error): once when both runs hold the same, else
 * under each run's label, so a reader knows which run failed or was graded against what.
 */
function PerSide({
  name,
  both,
  reference,
  candidate,
  labels,
  className,
}: {
  name: string;
  /** The label when both runs hold the same value. */
  both: string;
  reference: string | null | undefined;
  candidate: string | null | undefined;
  labels: SideLabels;
  className?: string;
}) {
  const lines: [string, string][] =
    reference && reference === candidate
      ? [[both, reference]]
      : [
          ...(reference ? [[`${name} in ${labels.reference}`, reference] as [string, string]] : []),
          ...(candidate ? [[`${name} in ${labels.candidate}`, candidate] as [string, string]] : []),
        ];
  return lines.map(([label, value], i) => (
    <p key={i} className={className ? `small ${className}` : 'small'}>
      <span className="muted">{label}:</span> <span className="mono">{value}</span>
    </p>
  ));
}
