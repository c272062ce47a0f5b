import type { TextRange } from './locate';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A text looked for among a window's string literals, and what the scan saw of it. */
export interface Sought {
  text: string;
  /** The first literal without escapes whose bytes are the text's UTF-8, quotes included. */
  found: TextRange | null;
  /**
   * Whether a literal with escapes, of a length the text's could have, was passed: only then
   * may its literal lie in the window in an escaped form, which the scan does not decode.
   */
  escapedSeen: boolean;
}

export function sought(text: string): Sought {
  return { text, found: null, escapedSeen: false };
}

/**
 * The next backslash of one buffer at or after a position, remembered: most literals have
 * none, and asking `indexOf` afresh for each would scan to the next one again and again.
 */
export class BackslashIndex {
  private buffer: Buffer | null = null;
  private from = 0;
  private at = -1;

  /** The first backslash of `bytes` at or after `from`, or -1. */
  next(bytes: Buffer, from: number): number {
    if (bytes !== this.buffer || from < this.from || (this.at !== -1 && from > this.at)) {
      this.buffer = bytes;
      this.from = from;
      this.at = bytes.indexOf(BACKSLASH, from);
    }
    return this.at;
  }
}

/** The closing quote of a literal whose first escape is the backslash at `escape`. */
function closeAfterEscapes(bytes: Buffer, escape: number, backslashes: BackslashIndex): number {
  let at = escape;
  for (;;) {
    // The escaped character is skipped whatever it is (`\"`, `\\`, `\uXXXX`'s `u`).
    const close = bytes.indexOf(QUOTE, at + 2);
    const next = backslashes.next(bytes, at + 2);
    if (next === -1 || close === -1 || next > close) return close;
    at = next;
  }
}

/** Texts up to this many code units are compared with a literal in the scratch buffer. */
const SCRATCH_UNITS = 64 * 1024;
/** Where such a text is written as UTF-8, three bytes per unit being the most it takes. */
let scratch: Buffer | null = null;

/**
 * Whether bytes [start, end), a literal's inside without escapes, are the UTF-8 of `text`. As
 * many bytes as code units can only be an ASCII text's: it is written into the scratch buffer
 * and compared there, rather than the bytes decoded into a string per literal (as much garbage
 * as the file holds texts); any other text is compared decoded.
 */
function literalIs(bytes: Buffer, start: number, end: number, text: string): boolean {
  const n = text.length;
  if (end - start !== n || n > SCRATCH_UNITS) return bytes.toString('utf8', start, end) === text;
  scratch ??= Buffer.allocUnsafeSlow(3 * SCRATCH_UNITS);
  // The whole text fits, so n bytes are written only if every unit is ASCII.
  return scratch.write(text, 'utf8') === n && bytes.compare(scratch, 0, n, start, end) === 0;
}

/**
 * Reads the string literals of `bytes` [from, limit) in order, once, for `texts`: each text not
 * yet found takes the first literal without escapes whose bytes decode to it. That literal is
 * the text as JSON.stringify (or Python with `ensure_ascii=False`) writes it, which is what
 * the byte search looks for. `from` must lie outside any string of JSON that JSON.parse
 * accepted (the file's start, a batch's first element, the end of a literal found before):
 * then every quote outside a literal opens the next one, and the bytes between two quotes are
 * never structure. Literals with escapes are not decoded, only noted for the texts they could
 * be; the locator searches those texts' literals byte for byte.
 */
export function scanLiterals(
  bytes: Buffer,
  from: number,
  limit: number,
  texts: readonly Sought[],
  backslashes: BackslashIndex,
): void {
  let left = texts.length;
  // A literal shorter than every text still sought is none of them, escaped or not.
  let shortest = Infinity;
  for (const s of texts) shortest = Math.min(shortest, s.text.length);
  for (let pos = from; pos < limit && left > 0;) {
    if (bytes[pos] !== QUOTE) {
      pos++;
      continue;
    }
    const escape = backslashes.next(bytes, pos + 1);
    let close = bytes.indexOf(QUOTE, pos + 1);
    const escaped = escape !== -1 && close !== -1 && escape < close;
    if (escaped) close = closeAfterEscapes(bytes, escape, backslashes);
    if (close === -1 || close >= limit) return;
    const inner = close - pos - 1;
    if (inner < shortest) {
      pos = close + 1;
      continue;
    }
    for (const s of texts) {
      if (s.found !== null) continue;
      const n = s.text.length;
      if (escaped) {
        // An escape takes at least two bytes for one unit, `\uXXXX` six.
        if (inner > n && inner <= 6 * n) s.escapedSeen = true;
        continue;
      }
      // Without escapes a UTF-16 unit takes one to three bytes (a surrogate pair four for two).
      if (inner < n || inner > 3 * n) continue;
      if (literalIs(bytes, pos + 1, close, s.text)) {
        s.found = { start: pos, end: close + 1 };
        left--;
      }
    }
    pos = close + 1;
  }
}
