import { isAscii as isAsciiBytes } from 'node:buffer';
import { inflateSection, sectionsLength, type SectionText } from '../texts/sections';
import { beginsWordOf, isAscii, wordStartPattern } from './ascii-words';
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

/** One text section of a block: its lines, and the same bytes one code unit each. */
interface Side {
  section: SectionText;
  latin1: string;
}

/**
 * Scans the blocks the archive stored in the sections layout (texts/sections.ts) as the scan
 * of source files scans located literals (scan-located.ts): only the input and output sections
 * are inflated, and each line, a text's JSON literal, is tested where it lies. A line with only
 * ASCII bytes and no backslash is its text; one with a backslash is decoded; a row with a byte
 * past ASCII on either line is read whole and decided by `whole` (FTS5 past ASCII). The archive
 * holds every row's texts, so none is unavailable.
 */
export class SectionsScan {
  /** Each ASCII term's pattern, by term index (null past ASCII: it begins no ASCII word). */
  private readonly patterns: (RegExp | null)[];

  constructor(
    private readonly state: ScanState,
    private readonly whole: WholeRows,
  ) {
    this.patterns = state.terms.map((term) => (isAscii(term) ? wordStartPattern(term) : null));
  }

  /** Decides the rows of one block, whose first row is example `first`. */
  block(data: Buffer, first: number): void {
    const rows = sectionsLength(data);
    const sides: Side[] = (['input', 'output'] as const).map((part) => {
      const section = inflateSection(data, part, INFLATE_CHUNK);
      return { section, latin1: section.text.toString('latin1') };
    });
    // By slot: 2 × row + side.
    const kinds = new Uint8Array(2 * rows);
    sides.forEach(({ section, latin1 }, side) => {
      const { text } = section;
      markLines(section, side, kinds, BACKSLASH, (from) => text.indexOf(BACKSLASH_BYTE, from));
      if (!isAsciiBytes(text))
        markLines(section, side, kinds, HIGH, (from) => {
          HIGH_BYTE.lastIndex = from;
          return HIGH_BYTE.exec(latin1)?.index ?? -1;
        });
    });
    const left = new Uint8Array(rows);
    const decoded: [row: number, lowered: string][] = [];
    for (let row = 0; row < rows; row++) {
      const both = kinds[2 * row]! | kinds[2 * row + 1]!;
      if (both === 0) continue;
      const texts = sides.map((s) => lineText(s.section, row));
      if (both & HIGH || !texts.every(isAscii)) {
        left[row] = 1;
        this.whole.add(first + row, texts[0]!, texts[1]!);
        continue;
      }
      texts.forEach((text, side) => {
        if (kinds[2 * row + side]! & BACKSLASH) decoded.push([row, text.toLowerCase()]);
      });
    }
    this.count(sides, kinds, decoded, first);
    const { state } = this;
    for (let row = 0; row < rows; row++)
      if (left[row] === 0 && state.holdsAll(first + row)) state.hits[first + row] = 1;
  }

  /**
   * Counts each term once per row that holds it: in plain lines where they lie, in decoded
   * texts by ascii-words.ts. Term by term, as ScanState counts them.
   */
  private count(sides: Side[], kinds: Uint8Array, decoded: [number, string][], first: number) {
    const { state } = this;
    this.patterns.forEach((found, t) => {
      if (found === null) return;
      const term = state.terms[t]!;
      sides.forEach(({ section, latin1 }, side) => {
        const { starts } = section;
        let row = 0;
        found.lastIndex = 0;
        for (let match = found.exec(latin1); match; match = found.exec(latin1)) {
          while (starts[row + 1]! <= match.index) row++;
          if (kinds[2 * row + side] === 0) state.holds(first + row, t);
          found.lastIndex = starts[row + 1]!;
        }
      });
      for (const [row, lowered] of decoded)
        if (beginsWordOf(lowered, term)) state.holds(first + row, t);
    });
  }
}

/** A row's text from its line of a section. */
function lineText({ text, starts }: SectionText, row: number): string {
  return JSON.parse(text.toString('utf8', starts[row], starts[row + 1]! - 1)) as string;
}

/** Marks with `kind` each line of this side holding a byte `find` finds. */
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
