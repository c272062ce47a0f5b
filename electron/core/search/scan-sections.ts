import { isAscii as isAsciiBytes } from 'node:buffer';
import { inflateSection, type SectionText } from '../texts/sections';
import { beginsWordAt, beginsWordOf, digitAnchor, isAscii, wordStartPattern } from './ascii-words';
import type { ScanState, WholeRows } from './scan-rows';

const BACKSLASH = 1;
const HIGH = 2;
const BACKSLASH_BYTE = 0x5c;
const HIGH_BYTE = /[\u0080-\u00ff]/g;
/**
 * zlib's output buffer for a section the scan drops right after: at zlib's 16 KiB default a
 * section of ~100 KiB came in seven pieces copied together, and the scan of a million
 * archived examples took 5.8 s of CPU instead of 4.4 s.
 */
const INFLATE_CHUNK = 256 * 1024;
/**
 * The most bytes of a section read into one string at once (a longer line is one piece of
 * its own). V8 puts a string past 128 KiB in fresh pages of its own, which the kernel must
 * map and zero, and frees them only at a full collection; a smaller one is allocated in the
 * young generation, whose pages are reused. Strings of whole sections cost a million archived
 * examples 0.4 s more CPU than these.
 */
export const PIECE_BYTES = 64 * 1024;

/** How an ASCII term is found in a section's plain lines. */
type Finder =
  /** By a byte search for its digits, each place then tested in place. */
  | { anchor: Buffer; at: number; term: Buffer }
  /** By its pattern, over the section read into strings. */
  | { pattern: RegExp };

/**
 * Scans the blocks the archive stored in the sections layout (texts/sections.ts) as the scan
 * of source files scans located literals (scan-located.ts): only the input and output sections
 * are inflated, and each line, a text's JSON literal, is tested where it lies. A line with only
 * ASCII bytes and no backslash is its text; one with a backslash is decoded; a row with a byte
 * past ASCII on either line is read whole and decided by `whole` (FTS5 past ASCII). The archive
 * holds every row's texts, so none is unavailable.
 */
export class SectionsScan {
  /** How each term is found, by term index (null past ASCII: it begins no ASCII word). */
  private readonly finders: (Finder | null)[];
  /** Whether some term is found by its pattern: the sections are then read into strings. */
  private readonly patterned: boolean;

  constructor(
    private readonly state: ScanState,
    private readonly whole: WholeRows,
    /** How many bytes of a section are read into one string at most (tests cut it small). */
    private readonly pieceBytes = PIECE_BYTES,
  ) {
    this.finders = state.terms.map((term): Finder | null => {
      if (!isAscii(term)) return null;
      const anchor = digitAnchor(term);
      return anchor
        ? { anchor: anchor.bytes, at: anchor.at, term: Buffer.from(term, 'latin1') }
        : { pattern: wordStartPattern(term) };
    });
    this.patterned = this.finders.some((finder) => finder !== null && 'pattern' in finder);
  }

  /** Decides the rows of one block, whose first row is example `first`. */
  block(data: Buffer, first: number): void {
    const sides = (['input', 'output'] as const).map((part) =>
      inflateSection(data, part, INFLATE_CHUNK),
    );
    const rows = sides[0]!.starts.length - 1;
    // By slot: 2 × row + side.
    const kinds = new Uint8Array(2 * rows);
    // By term, the rows found to hold it (a block's rows are few: the scan state counts runs).
    const held = this.finders.map(() => new Uint8Array(rows));
    sides.forEach((section, side) => {
      const { text } = section;
      markLines(section, side, kinds, BACKSLASH, (from) => text.indexOf(BACKSLASH_BYTE, from));
      const ascii = isAsciiBytes(text);
      if (!ascii || this.patterned)
        forEachPiece(section, this.pieceBytes, (piece, from, row) => {
          if (!ascii) markHigh(piece, from, section, row, side, kinds);
          this.countPatterns(piece, from, section, row, side, kinds, held);
        });
      this.finders.forEach((finder, t) => {
        if (finder !== null && 'anchor' in finder)
          countAnchored(finder, section, side, kinds, held[t]!);
      });
    });
    const left = new Uint8Array(rows);
    for (let row = 0; row < rows; row++) {
      const both = kinds[2 * row]! | kinds[2 * row + 1]!;
      if (both === 0) continue;
      const texts = sides.map((section) => lineText(section, row));
      if (both & HIGH || !texts.every(isAscii)) {
        left[row] = 1;
        this.whole.add(first + row, texts[0]!, texts[1]!);
        continue;
      }
      texts.forEach((text, side) => {
        if (kinds[2 * row + side]! & BACKSLASH) this.countDecoded(text.toLowerCase(), row, held);
      });
    }
    const { hits } = this.state;
    for (let row = 0; row < rows; row++)
      if (left[row] === 0 && held.every((rowsHolding) => rowsHolding[row] === 1))
        hits[first + row] = 1;
  }

  /**
   * Marks the terms found by their pattern in the plain lines (no backslash, no byte past
   * ASCII) of a piece: a piece is whole lines, so a line's marks are all set by now.
   */
  private countPatterns(
    piece: string,
    from: number,
    { starts }: SectionText,
    firstRow: number,
    side: number,
    kinds: Uint8Array,
    held: Uint8Array[],
  ): void {
    this.finders.forEach((finder, t) => {
      if (finder === null || !('pattern' in finder)) return;
      const found = finder.pattern;
      const rowsHolding = held[t]!;
      let row = firstRow;
      found.lastIndex = 0;
      for (let match = found.exec(piece); match; match = found.exec(piece)) {
        while (starts[row + 1]! <= from + match.index) row++;
        if (kinds[2 * row + side] === 0) rowsHolding[row] = 1;
        found.lastIndex = starts[row + 1]! - from;
      }
    });
  }

  /** Marks the terms a decoded ASCII text (lowered) holds, by the rules of ascii-words.ts. */
  private countDecoded(lowered: string, row: number, held: Uint8Array[]): void {
    this.state.terms.forEach((term, t) => {
      if (this.finders[t] !== null && beginsWordOf(lowered, term)) held[t]![row] = 1;
    });
  }
}

/**
 * Calls `each` with the section cut into strings of whole lines, one byte a code unit, each
 * at most `most` bytes long unless a line alone is longer; with where it starts, and its
 * first row. A term holds no newline, so none is found across two pieces, and a piece starts
 * a line as the section does: the word-start test sees the same there.
 */
function forEachPiece(
  { text, starts }: SectionText,
  most: number,
  each: (piece: string, from: number, row: number) => void,
): void {
  const rows = starts.length - 1;
  for (let row = 0; row < rows;) {
    let next = row + 1;
    while (next < rows && starts[next + 1]! - starts[row]! <= most) next++;
    each(text.toString('latin1', starts[row], starts[next]), starts[row]!, row);
    row = next;
  }
}

/**
 * Marks the plain lines of a side where a term found by its digits begins a word: every place
 * its digits lie is tested, the rest of the section is never read. Once all lines' marks are set.
 */
function countAnchored(
  { anchor, at, term }: { anchor: Buffer; at: number; term: Buffer },
  { text, starts }: SectionText,
  side: number,
  kinds: Uint8Array,
  rowsHolding: Uint8Array,
): void {
  let row = 0;
  for (let found = text.indexOf(anchor, at); found >= 0;) {
    while (starts[row + 1]! <= found) row++;
    if (kinds[2 * row + side] === 0 && beginsWordAt(text, found - at, term)) {
      rowsHolding[row] = 1;
      found = text.indexOf(anchor, starts[row + 1]! + at);
    } else found = text.indexOf(anchor, found + 1);
  }
}

/** A row's text from its line of a section. */
function lineText({ text, starts }: SectionText, row: number): string {
  return JSON.parse(text.toString('utf8', starts[row], starts[row + 1]! - 1)) as string;
}

/** Marks each line of this side holding a byte `find` finds. */
function markLines(
  { starts }: SectionText,
  side: number,
  kinds: Uint8Array,
  kind: number,
  find: (from: number) => number,
): void {
  let row = 0;
  for (let at = find(0); at >= 0; at = find(starts[row + 1]!)) {
    while (starts[row + 1]! <= at) row++;
    kinds[2 * row + side]! |= kind;
  }
}

/** Marks the lines of a piece that hold a byte past ASCII. */
function markHigh(
  piece: string,
  from: number,
  section: SectionText,
  firstRow: number,
  side: number,
  kinds: Uint8Array,
): void {
  const { starts } = section;
  let row = firstRow;
  HIGH_BYTE.lastIndex = 0;
  for (let match = HIGH_BYTE.exec(piece); match; match = HIGH_BYTE.exec(piece)) {
    while (starts[row + 1]! <= from + match.index) row++;
    kinds[2 * row + side]! |= HIGH;
    HIGH_BYTE.lastIndex = starts[row + 1]! - from;
  }
}
