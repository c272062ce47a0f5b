/** Integers past this are written by String (a byte offset never is, in practice). */
const SMALL_INT = 2 ** 31 - 1;

/** Bytes that `byte` and `digits` may write after any `ensure` or `text` without asking. */
export const SLACK = 128;

const FIRST_BYTES = 64 * 1024;
/** A buffer grown past this for a block of long inline texts is not kept for the next. */
const KEPT_BYTES = 1024 ** 2;
/** Texts up to this many code units get room for three bytes each rather than be measured. */
const GUESSED_CHARS = 4096;

/**
 * JSON text written straight as UTF-8 into one buffer, reused from one block to the next. A
 * located block is mostly short ASCII pieces (offsets, hash prefixes, fields): joined as
 * strings, the rope of a block's pieces cost more to flatten and encode than to write them
 * here byte by byte. `byte` and `digits` do not check for room (they run a hundred times per
 * row): `ensure` and `text` leave SLACK bytes for them.
 */
export class JsonBytes {
  private bytes = Buffer.allocUnsafe(FIRST_BYTES);
  private at = 0;

  /** Room for `n` more bytes, and SLACK after them. */
  ensure(n: number): void {
    if (this.at + n + SLACK <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.at + n + SLACK) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  byte(code: number): void {
    this.bytes[this.at++] = code;
  }

  /** A non-negative integer, as String writes it. */
  digits(n: number): void {
    if (!(Number.isInteger(n) && n >= 0 && n <= SMALL_INT)) {
      this.text(String(n));
      return;
    }
    const bytes = this.bytes;
    let end = this.at;
    for (let rest = n; ;) {
      end++;
      rest = (rest / 10) | 0;
      if (rest === 0) break;
    }
    this.at = end;
    let rest = n;
    do {
      const tens = (rest / 10) | 0;
      bytes[--end] = 48 + rest - tens * 10;
      rest = tens;
    } while (rest > 0);
  }

  /** The first `count` code units of a string known to be ASCII (a hex digest), within SLACK. */
  ascii(text: string, count: number): void {
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < count; i++) bytes[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /**
   * A string as UTF-8, as Buffer.from writes it: ASCII by hand, the rest natively from its first
   * other code unit on (a cut there splits no surrogate pair).
   */
  text(text: string): void {
    this.ensure(text.length <= GUESSED_CHARS ? 3 * text.length : Buffer.byteLength(text, 'utf8'));
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.at = at + bytes.write(text.slice(i), at, 'utf8');
        return;
      }
      bytes[at++] = code;
    }
    this.at = at;
  }

  /** Drops what was written and not taken (a block whose encoding threw half-way). */
  clear(): void {
    this.at = 0;
  }

  /** A copy of what was written, and the buffer emptied for the next. */
  take(): Buffer {
    const out = Buffer.from(this.bytes.subarray(0, this.at));
    this.at = 0;
    if (this.bytes.length > KEPT_BYTES) this.bytes = Buffer.allocUnsafe(FIRST_BYTES);
    return out;
  }
}
