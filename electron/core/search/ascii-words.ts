/**
 * How FTS5's `unicode61` tokenizer treats ASCII, which the scan of texts not yet indexed
 * relies on (test/unit/search-scan.test.ts checks it against FTS5 itself): the letters and
 * digits [0-9A-Za-z] are word characters, every other ASCII character (`_`, `'`, punctuation,
 * controls) cuts words, and a word is folded by lowering its capitals. So in an ASCII text, a
 * folded ASCII term begins a word exactly where it occurs, ignoring case, at the start of the
 * text or right after a character that is not a letter or digit. A term with any other
 * character cannot begin a word of an ASCII text.
 */

/** Each byte with its ASCII capital letters lowered. */
export const LOWER = Uint8Array.from({ length: 256 }, (_, b) =>
  b >= 0x41 && b <= 0x5a ? b + 0x20 : b,
);

/** 1 for the bytes of ASCII letters and digits: what unicode61 keeps in a word. */
export const WORD_BYTE = Uint8Array.from({ length: 256 }, (_, b) =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) ? 1 : 0,
);

// eslint-disable-next-line no-control-regex -- every code unit past ASCII, controls aside
const NOT_ASCII = /[^\u0000-\u007f]/;

export const isAscii = (text: string): boolean => !NOT_ASCII.test(text);

/**
 * Whether a folded term begins a word of an ASCII text already lowered (`toLowerCase` lowers
 * exactly the ASCII capitals of an ASCII string).
 */
export function beginsWordOf(lowered: string, term: string): boolean {
  const word = WORD_BYTE;
  for (let at = lowered.indexOf(term); at >= 0; at = lowered.indexOf(term, at + 1))
    if (at === 0 || word[lowered.charCodeAt(at - 1)] === 0) return true;
  return false;
}

/**
 * Finds a folded ASCII term where it begins a word in raw text read one byte to a code unit:
 * after no letter or digit (a JSON literal's opening quote is neither), ignoring ASCII case.
 * Without the unicode flag, `i` folds no character past ASCII onto an ASCII one.
 */
export const wordStartPattern = (term: string): RegExp => new RegExp(`(?<![0-9a-z])${term}`, 'gi');

/**
 * Whether a folded ASCII term (as bytes) begins a word at byte `at` of raw text: its bytes
 * there, ignoring ASCII case, after no letter or digit.
 */
export function beginsWordAt(text: Uint8Array, at: number, term: Uint8Array): boolean {
  if (at < 0 || at + term.length > text.length) return false;
  if (at > 0 && WORD_BYTE[text[at - 1]!] === 1) return false;
  for (let i = 0; i < term.length; i++) if (LOWER[text[at + i]!] !== term[i]) return false;
  return true;
}

/**
 * A folded ASCII term's longest run of digits, which no folding of case changes, so a byte
 * search finds every place the term may begin a word; and where it lies in the term. Null for
 * a term without two digits in a row: one digit lies in most numbers of a text, and testing
 * each place took a common word longer than the term's pattern over the whole text.
 */
export function digitAnchor(term: string): { bytes: Buffer; at: number } | null {
  let best: { bytes: Buffer; at: number } | null = null;
  for (const run of term.matchAll(/[0-9]{2,}/g))
    if (!best || run[0].length > best.bytes.length)
      best = { bytes: Buffer.from(run[0], 'latin1'), at: run.index! };
  return best;
}
