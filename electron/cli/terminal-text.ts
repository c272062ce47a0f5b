/**
 * Everything the CLI prints passes through here. Run files, server answers and file names are
 * written by others, and a terminal obeys control characters wherever they appear: ESC and CSI
 * sequences can clear the screen, set the window title or write the clipboard (OSC 52), a lone
 * CR overwrites the line it is on, and bidi overrides reorder what is shown. Each such character
 * is printed as a visible `\uXXXX` escape instead; line breaks (LF, CRLF) and tabs are kept.
 *
 * JSON output stays valid and means the same: JSON.stringify already escapes C0 controls, and a
 * C1 control or bidi override inside a JSON string may be written as the same `\uXXXX` escape.
 */

// CRLF is matched first so that it is kept whole; then C0 controls but TAB and LF, DEL, C1
// controls, and the bidi embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function forTerminal(text: string): string {
  return text.replace(UNSAFE, (match) =>
    match === '\r\n' ? match : `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
