import { Fragment } from 'react';
import { headerPieces } from './columnFit';

/**
 * A header's text with a line-break opportunity after each underscore, dot, slash or hyphen, so
 * a field name like `refusal_rate` wraps onto a second line where the column sizing expects.
 */
export function HeaderLabel({ text }: { text: string }) {
  const pieces = headerPieces(text);
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
