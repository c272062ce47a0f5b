/** A text in a located block: inline, or [start, end, hash prefix] of its literal in the file. */
export type Located = [number, number, string];
export type Ref = string | Located;

/** A located block's header: the source file and its stamp when the indexer read it. */
export interface BlockHead {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Hex digits of a hash prefix as the indexer writes it: two 32-bit halves. */
const PREFIX_DIGITS = 16;

/**
 * The texts of a run's examples from its located blocks, two slots per example (input,
 * output) by ordinal: where the literal lies in the file with its hash prefix, or the text
 * inline. Flat typed arrays, not each block's parsed rows: a million examples' worth of small
 * objects kept alive would be marked by every collection of the scan's heap.
 */
export class LocatedTexts {
  readonly start: Float64Array;
  readonly end: Float64Array;
  private readonly prefixHalves: Uint32Array;
  /** A prefix of another length than the indexer writes, kept as it is. */
  private readonly otherPrefixes = new Map<number, string>();
  readonly inline = new Map<number, string>();

  constructor(examples: number) {
    this.start = new Float64Array(2 * examples).fill(-1);
    this.end = new Float64Array(2 * examples);
    this.prefixHalves = new Uint32Array(4 * examples);
  }

  set(slot: number, ref: Ref): void {
    if (typeof ref === 'string') this.inline.set(slot, ref);
    else if (/^[0-9a-f]{16}$/.test(ref[2]))
      this.setHalves(
        slot,
        ref[0],
        ref[1],
        parseInt(ref[2].slice(0, 8), 16),
        parseInt(ref[2].slice(8), 16),
      );
    else {
      this.start[slot] = ref[0];
      this.end[slot] = ref[1];
      this.otherPrefixes.set(slot, ref[2]);
    }
  }

  setHalves(slot: number, start: number, end: number, high: number, low: number): void {
    this.start[slot] = start;
    this.end[slot] = end;
    this.prefixHalves[2 * slot] = high;
    this.prefixHalves[2 * slot + 1] = low;
  }

  located(slot: number): boolean {
    return this.start[slot]! >= 0;
  }

  prefix(slot: number): string {
    const half = (i: number) => this.prefixHalves[i]!.toString(16).padStart(8, '0');
    return this.otherPrefixes.get(slot) ?? half(2 * slot) + half(2 * slot + 1);
  }
}

const ROWS = Buffer.from(',"rows":[');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Hex digit values by byte; -1 for any other byte. */
const HEX = Int8Array.from({ length: 256 }, (_, b) =>
  b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 0x57 : -1,
);

function hex(data: Buffer, from: number, to: number): number {
  let value = 0;
  for (let k = from; k < to; k++) {
    const digit = HEX[data[k]!]!;
    if (digit < 0) throw new Unexpected();
    value = value * 16 + digit;
  }
  return value;
}

/** Thrown where the bytes are not a located block as the indexer writes it. */
class Unexpected extends Error {}

/**
 * A located block's texts read from its bytes without parsing its fields, targets and errors
 * (texts/located.ts writes `{"path":…,"size":…,"mtimeMs":…,"rows":[[ref,ref,fields,target,
 * error],…]}` with no spaces): JSON.parse of every block made a million small objects per run
 * for the two refs a row needs. Null when the bytes are laid out otherwise; the caller then
 * parses the block whole.
 */
export function readLocatedRefs(
  data: Buffer,
  first: number,
  texts: LocatedTexts,
): { head: BlockHead; rows: number } | null {
  try {
    return new RefReader(data, first, texts).read();
  } catch (error) {
    if (error instanceof Unexpected || error instanceof SyntaxError) return null;
    throw error;
  }
}

class RefReader {
  private i = 0;

  constructor(
    private readonly data: Buffer,
    private readonly first: number,
    private readonly texts: LocatedTexts,
  ) {}

  read(): { head: BlockHead; rows: number } {
    const { data } = this;
    const at = data.indexOf(ROWS);
    if (at < 0) throw new Unexpected();
    const head = JSON.parse(`${data.toString('utf8', 0, at)}}`) as BlockHead;
    this.i = at + ROWS.length;
    let rows = 0;
    if (data[this.i] === CLOSE) return { head, rows };
    for (;;) {
      this.expect(OPEN);
      const slot = 2 * (this.first + rows);
      this.ref(slot);
      this.expect(COMMA);
      this.ref(slot + 1);
      while (data[this.i] === COMMA) {
        this.i++;
        this.skipValue();
      }
      this.expect(CLOSE);
      rows++;
      if (data[this.i] === CLOSE) return { head, rows };
      this.expect(COMMA);
    }
  }

  private expect(byte: number): void {
    if (this.data[this.i] !== byte) throw new Unexpected();
    this.i++;
  }

  /** `[start,end,"prefix"]` or a JSON string, into the slot. */
  private ref(slot: number): void {
    const { data } = this;
    if (data[this.i] === QUOTE) {
      const from = this.i;
      this.skipString();
      this.texts.set(slot, JSON.parse(data.toString('utf8', from, this.i)) as string);
      return;
    }
    // The usual form in one pass over local state: the reader's slowest part at 2 million refs.
    let i = this.i;
    if (data[i++] !== OPEN) throw new Unexpected();
    let start = 0;
    for (let b = data[i]!; b >= 0x30 && b <= 0x39; b = data[++i]!) start = start * 10 + b - 0x30;
    if (data[i++] !== COMMA) throw new Unexpected();
    let end = 0;
    for (let b = data[i]!; b >= 0x30 && b <= 0x39; b = data[++i]!) end = end * 10 + b - 0x30;
    if (data[i++] !== COMMA || data[i++] !== QUOTE) throw new Unexpected();
    const close = data.indexOf(QUOTE, i);
    if (close < 0 || data[close + 1] !== CLOSE) throw new Unexpected();
    if (close - i === PREFIX_DIGITS)
      this.texts.setHalves(slot, start, end, hex(data, i, i + 8), hex(data, i + 8, close));
    else this.texts.set(slot, [start, end, data.toString('latin1', i, close)]);
    this.i = close + 2;
  }

  /** Past a JSON string starting at its opening quote. */
  private skipString(): void {
    const { data } = this;
    let k = this.i + 1;
    for (;;) {
      const close = data.indexOf(QUOTE, k);
      if (close < 0) throw new Unexpected();
      let backslashes = 0;
      while (data[close - 1 - backslashes] === BACKSLASH) backslashes++;
      k = close + 1;
      if (backslashes % 2 === 0) break;
    }
    this.i = k;
  }

  /** Past one JSON value: a string, an object or array (strings inside skipped whole), a scalar. */
  private skipValue(): void {
    const { data } = this;
    const b = data[this.i];
    if (b === QUOTE) return this.skipString();
    if (b !== OPEN && b !== OPEN_OBJECT) {
      for (
        let c = data[this.i];
        c !== COMMA && c !== CLOSE && c !== CLOSE_OBJECT;
        c = data[this.i]
      ) {
        if (c === undefined) throw new Unexpected();
        this.i++;
      }
      return;
    }
    let depth = 0;
    do {
      const c = data[this.i];
      if (c === undefined) throw new Unexpected();
      if (c === QUOTE) {
        this.skipString();
        continue;
      }
      if (c === OPEN || c === OPEN_OBJECT) depth++;
      else if (c === CLOSE || c === CLOSE_OBJECT) depth--;
      this.i++;
    } while (depth > 0);
  }
}
