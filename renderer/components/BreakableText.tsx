import { Fragment } from 'react';

/** Names break after these: `refusal_rate`, `model/v2`, `steering_strength@-8.0`. */
const BREAK_AFTER = /(?<=[\s_./@,-])/;

/** The text cut where it may wrap; joined, the pieces are the text again. */
export function breakPieces(text: string): string[] {
  return text.split(BREAK_AFTER).filter((p) => p !== '');
}

/**
 * A name with a line-break opportunity after each underscore, dot, slash, at sign, comma or
 * hyphen, so `steering_strength@-8.0` or lm-eval's `acc_norm,none` wraps between its words
 * rather than inside one (with CSS `overflow-wrap: break-word`, a piece is cut only when it
 * cannot fit on a line by itself).
 */
export function BreakableText({ text }: { text: string }) {
  const pieces = breakPieces(text);
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {piece}
          {i < pieces.length - 1 && !piece.endsWith(' ') ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
