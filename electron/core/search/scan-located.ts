import { isAscii as isAsciiBytes } from 'node:buffer';
import { hash } from 'node:crypto';
import { beginsWordOf, isAscii, wordStartPattern } from './ascii-words';
import type { LocatedTexts } from './located-refs';
import { readInto } from '../texts/located';
import type { ScanState } from './scan-rows';

/** One source file's examples, in file order: each with where its literals begin and end. */
export interface FileRows {
  ordinals: number[];
  lo: number[];
  hi: number[];
}

/**
 * Bytes of the source read at once: the rows whose literals fit, in file order. Each chunk is
 * copied into a string; at 32 MiB each copy was fresh memory (page faults), at 4 MiB the
 * scan of a million examples took a fifth less CPU.
 */
const CHUNK = 4 * 1024 ** 2;
/** A row whose two literals lie further apart than this is read whole instead (rare layouts). */
export const MAX_ROW_SPAN = 1024 ** 2;

const BACKSLASH = 1;
const HIGH = 2;
const BACKSLASH_BYTE = 0x5c;
const HIGH_BYTE = /[\u0080-\u00ff]/g;

/** An escaped ASCII literal's text, or null when it is no JSON string. */
function parseAscii(bytes: Buffer, start: number, end: number): string | null {
  try {
    const value: unknown = JSON.parse(bytes.toString('latin1', start, end));
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * One chunk of a source file, read as latin1 so that each byte is one code unit: each literal
 * sorted out (its own text, to decode, or past ASCII), the terms counted in the texts, and
 * the rows holding every term checked as the fill's reader checks them (each located text's
 * hash prefix), so a text changed in place matches nothing, as the fill indexes no word of it.
 * Native passes only over the bytes (memchr, V8's lowering, memmem), none in JavaScript.
 */
class Chunk {
  /** The chunk's located literals by where they start: slot (2 × ordinal + side), bounds. */
  private readonly slots: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly kinds: Uint8Array;
  /** Examples left out of the count: read whole later, or unreadable. */
  private readonly skip = new Set<number>();
  /** Texts decoded from escaped literals or given inline, lowered, by ordinal. */
  private readonly strings: [number, string][] = [];
  private readonly decoded = new Map<number, string>();

  constructor(
    private readonly bytes: Buffer,
    private readonly base: number,
    private readonly texts: LocatedTexts,
    private readonly ordinals: number[],
    private readonly state: ScanState,
    /** Examples with a text past ASCII: FTS5 decides them once they are read whole. */
    private readonly whole: number[],
  ) {
    const order: number[] = [];
    for (const ordinal of ordinals)
      for (const slot of [2 * ordinal, 2 * ordinal + 1]) {
        const inline = texts.inline.get(slot);
        if (inline === undefined) order.push(slot);
        else if (!isAscii(inline)) this.leave(ordinal);
        else this.strings.push([ordinal, inline.toLowerCase()]);
      }
    order.sort((a, b) => texts.start[a]! - texts.start[b]!);
    for (const slot of order) {
      this.slots.push(slot);
      this.starts.push(texts.start[slot]! - base);
      this.ends.push(texts.end[slot]! - base);
    }
    this.kinds = new Uint8Array(order.length);
  }

  private leave(ordinal: number): void {
    if (this.skip.has(ordinal)) return;
    this.skip.add(ordinal);
    this.whole.push(ordinal);
  }

  run(): void {
    const { bytes } = this;
    this.mark(BACKSLASH, (from) => bytes.indexOf(BACKSLASH_BYTE, from));
    const ascii = isAsciiBytes(bytes);
    const text = bytes.toString('latin1');
    if (!ascii)
      this.mark(HIGH, (from) => {
        HIGH_BYTE.lastIndex = from;
        return HIGH_BYTE.exec(text)?.index ?? -1;
      });
    this.sortOut();
    const { state, strings, skip } = this;
    state.terms.forEach((term, t) => {
      this.count(text, term, t);
      for (const [ordinal, string] of strings)
        if (!skip.has(ordinal) && beginsWordOf(string, term)) state.holds(ordinal, t);
    });
    for (const ordinal of this.ordinals)
      if (!this.skip.has(ordinal) && this.state.holdsAll(ordinal) && this.verified(ordinal))
        this.state.hits[ordinal] = 1;
  }

  /**
   * Calls `each` with the index of each literal holding an occurrence `find` finds, from the
   * first literal on, in order; `each` returns where to look next. Occurrences outside any
   * literal (the file's other members, texts read otherwise) are passed over.
   */
  private place(find: (from: number) => number, each: (p: number, at: number) => number): void {
    const { starts, ends } = this;
    let p = 0;
    let at = starts.length > 0 ? find(starts[0]!) : -1;
    while (at >= 0) {
      while (p < starts.length && ends[p]! <= at) p++;
      if (p === starts.length) return;
      at = at < starts[p]! ? find(starts[p]!) : each(p, at);
    }
  }

  /** Literals of two texts equal in the file share a range: each of them is marked. */
  private sameRange(p: number, mark: (q: number) => void): void {
    for (let q = p; q < this.starts.length && this.starts[q] === this.starts[p]; q++) mark(q);
  }

  private mark(kind: number, find: (from: number) => number): void {
    this.place(find, (p) => {
      this.sameRange(p, (q) => (this.kinds[q]! |= kind));
      return find(this.ends[p]!);
    });
  }

  /** Plain literals are their own text; escaped ones are decoded; past ASCII, read whole. */
  private sortOut(): void {
    this.kinds.forEach((kind, q) => {
      const ordinal = this.slots[q]! >> 1;
      if (kind === 0 || this.skip.has(ordinal)) return;
      if (kind & HIGH) return this.leave(ordinal);
      const text = parseAscii(this.bytes, this.starts[q]!, this.ends[q]!);
      // A literal that no longer parses is a text the fill cannot read: the row matches nothing.
      if (text === null) return void this.skip.add(ordinal);
      if (!isAscii(text)) return this.leave(ordinal);
      this.decoded.set(this.slots[q]!, text);
      this.strings.push([ordinal, text.toLowerCase()]);
    });
  }

  /**
   * Each plain literal holding the term at the beginning of a word: one search over the chunk
   * for the term (wordStartPattern), and the next from the literal's end once it counted; a
   * term past ASCII is in no ASCII text.
   */
  private count(text: string, term: string, t: number): void {
    if (!isAscii(term)) return;
    const { ends, kinds, slots, state } = this;
    const found = wordStartPattern(term);
    const find = (from: number) => {
      found.lastIndex = from;
      return found.exec(text)?.index ?? -1;
    };
    this.place(find, (p, at) => {
      if (at + term.length >= ends[p]!) return find(at + 1);
      this.sameRange(p, (q) => {
        if (kinds[q] === 0) state.holds(slots[q]! >> 1, t);
      });
      return find(ends[p]!);
    });
  }

  /** Whether each located text of a matching row is the one indexed, as the fill checks it. */
  private verified(ordinal: number): boolean {
    const { texts, base } = this;
    for (const slot of [2 * ordinal, 2 * ordinal + 1]) {
      if (!texts.located(slot)) continue;
      const text = this.decoded.get(slot);
      const digest =
        text === undefined
          ? hash(
              'sha1',
              this.bytes.subarray(texts.start[slot]! - base + 1, texts.end[slot]! - base - 1),
              'hex',
            )
          : hash('sha1', text, 'hex');
      if (!digest.startsWith(texts.prefix(slot))) return false;
    }
    return true;
  }
}

/**
 * Scans the literals of one file's rows (in file order, each spanning at most MAX_ROW_SPAN)
 * in the open file, a chunk of whole rows at a time. `between` runs between chunks (a cancel).
 */
export function scanLiterals(
  fd: number,
  rows: FileRows,
  texts: LocatedTexts,
  state: ScanState,
  whole: number[],
  between: () => void,
): void {
  const { ordinals, lo, hi } = rows;
  let last = 0;
  for (const end of hi) last = Math.max(last, end);
  const bytes = Buffer.allocUnsafe(Math.min(CHUNK, last - (lo[0] ?? last)));
  for (let i = 0; i < ordinals.length;) {
    between();
    const from = lo[i]!;
    let to = hi[i]!;
    let j = i + 1;
    while (j < ordinals.length && hi[j]! - from <= CHUNK) to = Math.max(to, hi[j++]!);
    const read = readInto(fd, bytes, from, to);
    // A file that now ends early has none of these texts: the fill would find them unreadable.
    if (read) new Chunk(read, from, texts, ordinals.slice(i, j), state, whole).run();
    i = j;
  }
}
