import { BackslashIndex, scanLiterals, sought, type Sought } from './literal-scan';

/** Where a text's JSON string literal lies in its source file: bytes [start, end). */
export interface TextRange {
  start: number;
  end: number;
}

/** One example's two texts, each found in the file or null (then carried inline). */
export interface LocatedTexts {
  input: TextRange | null;
  output: TextRange | null;
}

/**
 * Texts shorter than this are carried inline and not looked for: a range and a hash prefix
 * take about as many bytes, and a short literal (`""`, `"A"`) is found anywhere.
 */
export const MIN_LOCATED_CHARS = 48;
/** What a window allows, beyond the example's own two literals, for its other members. */
const MIN_SLACK = 64 * 1024;
/**
 * After each example missed in a row the window doubles (a member larger than the slack sits
 * between the cursor and the next texts), up to this many times.
 */
const MAX_DOUBLINGS = 7;
/** The slack never grows past this. */
const MAX_SLACK = 4 * 1024 ** 2;
/** Nor a window, grown or not, past this beyond the example's literals: what one miss scans. */
const MAX_GROWN = 16 * 1024 ** 2;
/**
 * Examples in a row with every looked-for text missed, after which the file's texts are taken
 * to be written some way the locator does not build (`\/`, uppercase hex) and it stops looking:
 * each miss scans a whole window, and the rest of the file would all miss.
 */
const GIVE_UP_AFTER = 64;
/** A literal's UTF-8 bytes are at most this many per UTF-16 unit (`\uXXXX` in ASCII form). */
const MAX_BYTES_PER_UNIT = 6;

const HAS_NON_ASCII = /[\u007f-\uffff]/;
/** What any writer escapes, or Python's default form does: a text without it is its literal. */
// eslint-disable-next-line no-control-regex -- control characters are among what is escaped
const ESCAPED = /[\u0000-\u001f"\\\u007f-\uffff]/;
const HEX = '0123456789abcdef';

/**
 * The literal as Python's `json.dumps` writes it by default (`ensure_ascii=True`): every code
 * unit from DEL up as a lowercase `\uXXXX` (a character past U+FFFF as its two surrogates).
 * The rest of its escaping (`\"`, `\\`, `\n` and the other short forms, `\u00XX` for other
 * controls) is JSON.stringify's. A loop rather than a replace with a callback: twice as fast.
 */
export function asciiLiteral(jsLiteral: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < jsLiteral.length; i++) {
    const code = jsLiteral.charCodeAt(i);
    if (code < 0x7f) continue;
    out += jsLiteral.slice(from, i);
    out += `\\u${HEX[code >> 12]}${HEX[(code >> 8) & 15]}${HEX[(code >> 4) & 15]}${HEX[code & 15]}`;
    from = i + 1;
  }
  return from === 0 ? jsLiteral : out + jsLiteral.slice(from);
}

/**
 * Finds, for each example's input and output, a byte range of the source whose bytes are
 * exactly the text's JSON literal as a writer of the file would have written it:
 * `JSON.stringify` (also Python with `ensure_ascii=False`, serde, orjson) or Python's default
 * ASCII form. Equal bytes parse to the equal text, so any occurrence is a right answer, and a
 * text not found (other escaping, or a text the importer built rather than read) is simply
 * not located. Examples come in file order: each is looked for in a window that starts where
 * the previous example's texts ended (its members may come in any order) and spans the two
 * literals plus a slack for the other members, grown from the largest gap seen, so a miss
 * never scans the rest of the file. One locator per file: it keeps the slack, which form the
 * file uses, and whether it gave up, across the batches of a large file.
 *
 * The window is read once, literal by literal (literal-scan.ts), and a text written without
 * escapes is found there as its literal is passed; only a text that may be escaped (the scan
 * passed an escaped literal of a fitting length) is searched for byte for byte in its two
 * forms. The search alone made locating an eighth of an index worker's time.
 */
export class TextLocator {
  private slack = MIN_SLACK;
  private preferAscii = false;
  private missedInRow = 0;
  private stopped = false;
  private readonly backslashes = new BackslashIndex();

  /** True once the locator stopped looking (too many examples in a row missed). */
  get gaveUp(): boolean {
    return this.stopped;
  }

  /**
   * The ranges, as file offsets, of `texts` (consecutive examples in file order) in `bytes`,
   * which hold the file from offset `offset` (the whole file, or a batch of whole elements).
   */
  locate(
    bytes: Buffer,
    offset: number,
    texts: readonly { input: string; output: string }[],
  ): LocatedTexts[] {
    const found = new Array<LocatedTexts>(texts.length);
    let cursor = 0;
    /** The first of the examples missed in a row in these bytes, or -1. */
    let firstMissed = -1;
    for (let i = 0; i < texts.length; i++) {
      const { input: inText, output: outText } = texts[i]!;
      const inLong = inText.length >= MIN_LOCATED_CHARS;
      const outLong = outText.length >= MIN_LOCATED_CHARS;
      if (this.stopped || (!inLong && !outLong)) {
        found[i] = { input: null, output: null };
        continue;
      }
      // A literal is at least its text's length and two quotes.
      const chars = (inLong ? inText.length + 2 : 0) + (outLong ? outText.length + 2 : 0);
      const own = MAX_BYTES_PER_UNIT * chars;
      const grown = Math.min(
        MAX_GROWN,
        this.slack * 2 ** Math.min(this.missedInRow, MAX_DOUBLINGS),
      );
      const limit = Math.min(bytes.length, cursor + own + grown);
      const [input, output] = this.findPair(bytes, cursor, limit, inLong, inText, outLong, outText);
      if (input === null && output === null) {
        found[i] = { input: null, output: null };
        if (firstMissed < 0) firstMissed = i;
        if (++this.missedInRow >= GIVE_UP_AFTER) this.stopped = true;
        continue;
      }
      this.missedInRow = 0;
      const gap = Math.min(input?.start ?? Infinity, output?.start ?? Infinity) - cursor;
      this.slack = Math.min(MAX_SLACK, Math.max(this.slack, 2 * gap));
      if (firstMissed >= 0)
        this.between(bytes, offset, cursor, cursor + gap, texts, found, firstMissed, i);
      firstMissed = -1;
      found[i] = { input: shift(input, offset), output: shift(output, offset) };
      cursor = Math.max(input?.end ?? 0, output?.end ?? 0);
    }
    return found;
  }

  /**
   * Looks again for the texts of examples `from` to `to` (missed in a row, the cursor held
   * where they began) in bytes [start, end), between that cursor and the example found after
   * them, where theirs must lie: they were missed while the window was still growing past a
   * member larger than the slack. `offset` is the file offset of `bytes`.
   */
  private between(
    bytes: Buffer,
    offset: number,
    start: number,
    end: number,
    texts: readonly { input: string; output: string }[],
    found: LocatedTexts[],
    from: number,
    to: number,
  ): void {
    let cursor = start;
    for (let k = from; k < to; k++) {
      const { input: inText, output: outText } = texts[k]!;
      const inLong = inText.length >= MIN_LOCATED_CHARS;
      const outLong = outText.length >= MIN_LOCATED_CHARS;
      if (!inLong && !outLong) continue;
      const [input, output] = this.findPair(bytes, cursor, end, inLong, inText, outLong, outText);
      if (input === null && output === null) continue;
      found[k] = { input: shift(input, offset), output: shift(output, offset) };
      cursor = Math.max(input?.end ?? 0, output?.end ?? 0);
    }
  }

  /**
   * Where in bytes [from, limit) the two texts' literals lie (each only if long enough): read
   * from the window's literals, else searched for in their escaped forms when the scan passed
   * a literal that might be one. Ranges are offsets into `bytes`.
   */
  private findPair(
    bytes: Buffer,
    from: number,
    limit: number,
    inLong: boolean,
    inText: string,
    outLong: boolean,
    outText: string,
  ): [TextRange | null, TextRange | null] {
    const input = inLong ? sought(inText) : null;
    const output = outLong ? sought(outText) : null;
    scanLiterals(
      bytes,
      from,
      limit,
      input && output ? [input, output] : [(input ?? output)!],
      this.backslashes,
    );
    return [this.settle(bytes, from, limit, input), this.settle(bytes, from, limit, output)];
  }

  private settle(
    bytes: Buffer,
    from: number,
    limit: number,
    text: Sought | null,
  ): TextRange | null {
    if (text === null) return null;
    if (text.found !== null) {
      // Found without escapes: in the form JSON.stringify writes, as the search would have.
      if (text.found.end - text.found.start - 2 > text.text.length) this.preferAscii = false;
      return text.found;
    }
    if (!text.escapedSeen) return null;
    const hit = this.find(bytes.subarray(from, limit), literalOf(text.text));
    return shift(hit, from);
  }

  /** Where in `window` the literal lies in either form (the one last found first), or null. */
  private find(window: Buffer, literal: Literal): TextRange | null {
    if (!literal.nonAscii) return search(window, literal.js, true);
    const ascii = this.preferAscii;
    const inForm = (asAscii: boolean) =>
      asAscii ? search(window, asciiLiteral(literal.js), true) : search(window, literal.js, false);
    const hit = inForm(ascii);
    if (hit !== null) return hit;
    const other = inForm(!ascii);
    if (other !== null) this.preferAscii = !ascii;
    return other;
  }
}

/** A text's literal as JSON.stringify writes it, and whether the ASCII form differs. */
interface Literal {
  js: string;
  nonAscii: boolean;
}

/**
 * A text's literal. Most texts need no escape, and quoting them is four times faster than
 * JSON.stringify.
 */
function literalOf(text: string): Literal {
  if (!ESCAPED.test(text)) return { js: `"${text}"`, nonAscii: false };
  const js = JSON.stringify(text);
  return { js, nonAscii: HAS_NON_ASCII.test(js) };
}

/**
 * An `ascii` literal (nothing from DEL up) has one byte per code unit: it is searched as
 * latin1, the same bytes without UTF-8 encoding, and its byte length is its length.
 */
function search(window: Buffer, literal: string, ascii: boolean): TextRange | null {
  const at = window.indexOf(literal, 0, ascii ? 'latin1' : 'utf8');
  if (at < 0) return null;
  return { start: at, end: at + (ascii ? literal.length : Buffer.byteLength(literal, 'utf8')) };
}

function shift(range: TextRange | null, by: number): TextRange | null {
  return range && by !== 0 ? { start: range.start + by, end: range.end + by } : range;
}
