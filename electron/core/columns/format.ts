/**
 * The byte layout of a run's column store: a magic word, the length of a JSON header, the
 * header (row count, each section's offset and length, each field's name and kind), then the
 * sections, each starting on an 8-byte boundary so Float64 and Int32 columns can be viewed in
 * place. docs/architecture.md ("Column stores") describes what each section holds.
 */

export const MAGIC = 0x31435750; // "PWC1", little-endian

export type FieldKind = 'number' | 'boolean' | 'string' | 'json';

export interface FieldHeader {
  key: string;
  kind: FieldKind;
}

export interface ColumnHeader {
  n: number;
  /**
   * How the ids section encodes the ids joined into one string: one byte per code unit when
   * every one fits, else UTF-16 (lossless for any string, lone surrogates included).
   */
  ids: 'latin1' | 'utf16le';
  sections: Record<string, [offset: number, length: number]>;
  fields: FieldHeader[];
}

/** Per-row state of a number or JSON field: absent, null, or a value in the value column. */
export const ABSENT = 0;
export const NULL = 1;
export const PRESENT = 2;
/** A boolean field's state holds its value: PRESENT for false, TRUE for true. */
export const TRUE = 3;
/** A string field's code for an absent key and for null; codes from 0 index the dictionary. */
export const CODE_ABSENT = -2;
export const CODE_NULL = -1;

/** Bytes of a SHA-1, the hash of each input and output. */
export const HASH_BYTES = 20;

const align = (n: number) => (n + 7) & ~7;

/**
 * A section's bytes, or how many there will be and how to write them in place: a large run's
 * biggest sections are written straight into the store rather than built and then copied.
 */
export type Section =
  Uint8Array | { byteLength: number; writeTo(out: Buffer, offset: number): void };

/** Lays sections out after the header. */
export function pack(
  n: number,
  ids: ColumnHeader['ids'],
  fields: FieldHeader[],
  sections: Map<string, Section>,
): Buffer {
  const header: ColumnHeader = { n, ids, sections: {}, fields };
  // The header's length depends on the offsets it records: lay out relative to its end first.
  let relative = 0;
  const placed: [string, number, Section][] = [];
  for (const [name, bytes] of sections) {
    placed.push([name, relative, bytes]);
    relative = align(relative + bytes.byteLength);
  }
  let start = 0;
  let headerBytes: Buffer;
  for (;;) {
    for (const [name, offset, bytes] of placed)
      header.sections[name] = [start + offset, bytes.byteLength];
    headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    const needed = align(8 + headerBytes.byteLength);
    if (needed === start) break;
    start = needed;
  }
  const out = Buffer.alloc(start + relative);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(headerBytes.byteLength, 4);
  headerBytes.copy(out, 8);
  for (const [name, , bytes] of placed) {
    const [offset] = header.sections[name]!;
    if (bytes instanceof Uint8Array) out.set(bytes, offset);
    else bytes.writeTo(out, offset);
  }
  return out;
}

/** Null for bytes that are not a column store this version writes. */
export function unpack(bytes: Buffer): ColumnHeader | null {
  if (bytes.byteLength < 8 || bytes.readUInt32LE(0) !== MAGIC) return null;
  const length = bytes.readUInt32LE(4);
  return JSON.parse(bytes.toString('utf8', 8, 8 + length)) as ColumnHeader;
}
