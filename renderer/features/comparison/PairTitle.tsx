import { shortPair } from '../../../shared/labels';

/**
 * "candidate vs reference" by the words that tell the two apart; what they share is below,
 * cut to a line, and the full names are the heading's title.
 */
export function PairTitle({ reference, candidate }: { reference: string; candidate: string }) {
  const names = shortPair(reference, candidate);
  return (
    <div className="pair-title">
      <h3 className="label-cut" title={`${candidate} vs ${reference}`}>
        {names.candidate} <span className="muted">vs</span> {names.reference}
      </h3>
      {names.shared ? (
        <div className="muted small label-cut" title={names.shared}>
          {names.shared}
        </div>
      ) : null}
    </div>
  );
}
