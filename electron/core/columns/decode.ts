import type { JsonObject, JsonValue } from '../../../shared/model';
import {
  CODE_ABSENT,
  CODE_NULL,
  HASH_BYTES,
  NULL,
  PRESENT,
  TRUE,
  unpack,
  type ColumnHeader,
} from './format';

/**
 * The SHA-1 of a text as the comparison holds it: its 20 bytes as a one-byte string. Only
 * equality matters, and slicing one string is far cheaper than making a hex string per text.
 */
export function hashKey(hex: string): string {
  return Buffer.from(hex, 'hex').toString('latin1', 0, HASH_BYTES);
}

/** An example as the comparison loads it: hashes of its texts (hashKey), never the texts. */
export interface ColumnExample {
  id: string;
  rowid: number;
  input: string;
  output: string;
  error: string | null;
  fields: JsonObject;
}

class Sections {
  constructor(
    private readonly bytes: Buffer,
    private readonly header: ColumnHeader,
  ) {}

  has(name: string): boolean {
    return name in this.header.sections;
  }

  raw(name: string): Buffer {
    const [offset, length] = this.header.sections[name]!;
    return this.bytes.subarray(offset, offset + length);
  }

  json<T>(name: string): T {
    return JSON.parse(this.raw(name).toString('utf8')) as T;
  }

  /** A typed view when the bytes sit on the element size's boundary, else a copy. */
  view<T extends Float64Array | Int32Array | Uint32Array>(
    name: string,
    Type: {
      new (buffer: ArrayBufferLike, offset: number, length: number): T;
      BYTES_PER_ELEMENT: number;
    },
  ): T {
    const raw = this.raw(name);
    const length = raw.byteLength / Type.BYTES_PER_ELEMENT;
    if (raw.byteOffset % Type.BYTES_PER_ELEMENT === 0)
      return new Type(raw.buffer, raw.byteOffset, length);
    const copy = new Uint8Array(raw.byteLength);
    copy.set(raw);
    return new Type(copy.buffer, 0, length);
  }
}

/** Assigns a key the way JSON.parse does: `__proto__` becomes an own key, not the prototype. */
function setter(key: string): (object: JsonObject, value: JsonValue) => void {
  if (key !== '__proto__')
    return (object, value) => {
      object[key] = value;
    };
  return (object, value) =>
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/**
 * The examples of a column store, in its (id) order, as the examples table gives them back:
 * fields hold their keys in sorted order, as their stored JSON does. Null for bytes this
 * version does not read.
 */
export function decodeRunColumns(bytes: Buffer): ColumnExample[] | null {
  const header = unpack(bytes);
  if (!header) return null;
  const s = new Sections(bytes, header);
  const n = header.n;
  const joined = s.raw('ids').toString(header.ids);
  const idEnds = s.view('idEnds', Uint32Array);
  const rowids = s.view('rowids', Float64Array);
  const input = s.raw('input').toString('latin1');
  const output = s.raw('output').toString('latin1');
  const errors = s.has('errors') ? s.json<(string | null)[]>('errors') : null;
  const examples = new Array<ColumnExample>(n);
  for (let k = 0, from = 0; k < n; k++) {
    const at = k * HASH_BYTES;
    const to = idEnds[k]!;
    examples[k] = {
      id: joined.slice(from, to),
      rowid: rowids[k]!,
      input: input.slice(at, at + HASH_BYTES),
      output: output.slice(at, at + HASH_BYTES),
      error: errors ? errors[k]! : null,
      fields: {},
    };
    from = to;
  }
  header.fields.forEach(({ key, kind }, f) => {
    const set = setter(key);
    if (kind === 'string') {
      const codes = s.view(`f${f}.codes`, Int32Array);
      const dictionary = s.json<string[]>(`f${f}.dict`);
      for (let k = 0; k < n; k++) {
        const code = codes[k]!;
        if (code !== CODE_ABSENT)
          set(examples[k]!.fields, code === CODE_NULL ? null : dictionary[code]!);
      }
      return;
    }
    const state = s.raw(`f${f}.state`);
    if (kind === 'boolean') {
      for (let k = 0; k < n; k++) {
        const v = state[k]!;
        if (v !== 0) set(examples[k]!.fields, v === NULL ? null : v === TRUE);
      }
      return;
    }
    if (kind === 'number') {
      const values = s.view(`f${f}.values`, Float64Array);
      for (let k = 0; k < n; k++) {
        const v = state[k]!;
        if (v !== 0) set(examples[k]!.fields, v === NULL ? null : values[k]!);
      }
      return;
    }
    const present = s.json<JsonValue[]>(`f${f}.json`);
    let next = 0;
    for (let k = 0; k < n; k++) {
      const v = state[k]!;
      if (v === PRESENT) set(examples[k]!.fields, present[next++]!);
      else if (v === NULL) set(examples[k]!.fields, null);
    }
  });
  return examples;
}
