import type { JsonValue } from '../../../shared/model';
import { HASH_BYTES, unpack, type ColumnHeader, type FieldKind } from './format';

/**
 * A run's column store as typed arrays, for the columnar comparison: nothing is made per
 * example. decode.ts turns the same bytes into one object per example.
 */
export interface RunTable {
  n: number;
  /** Every id, one after another; id k ends at idEnds[k], where id k − 1 ended. */
  joined: string;
  idEnds: Uint32Array;
  rowids: Float64Array;
  /** Each example's input and output SHA-1, five words per example. */
  input: Uint32Array;
  output: Uint32Array;
  /** Each example's error, or null when no example has one. */
  errors: (string | null)[] | null;
  fields: FieldColumn[];
}

export const HASH_WORDS = HASH_BYTES / 4;

/** One field of a run; `state` and the value arrays are indexed by example, as in format.ts. */
export type FieldColumn =
  | { key: string; kind: 'number'; state: Uint8Array; values: Float64Array }
  | { key: string; kind: 'boolean'; state: Uint8Array }
  | { key: string; kind: 'string'; codes: Int32Array; dictionary: string[] }
  | { key: string; kind: 'json'; state: Uint8Array; present: JsonValue[] };

type View = Float64Array | Int32Array | Uint32Array;

/** A typed view of a section when it sits on the element size's boundary, else of a copy. */
function view<T extends View>(
  raw: Buffer,
  Type: {
    new (buffer: ArrayBufferLike, offset: number, length: number): T;
    BYTES_PER_ELEMENT: number;
  },
): T {
  const length = raw.byteLength / Type.BYTES_PER_ELEMENT;
  if (raw.byteOffset % Type.BYTES_PER_ELEMENT === 0)
    return new Type(raw.buffer, raw.byteOffset, length);
  const copy = new Uint8Array(raw.byteLength);
  copy.set(raw);
  return new Type(copy.buffer, 0, length);
}

function field(key: string, kind: FieldKind, section: (part: string) => Buffer): FieldColumn {
  if (kind === 'string')
    return {
      key,
      kind,
      codes: view(section('codes'), Int32Array),
      dictionary: JSON.parse(section('dict').toString('utf8')) as string[],
    };
  const state = section('state');
  if (kind === 'boolean') return { key, kind, state };
  if (kind === 'number') return { key, kind, state, values: view(section('values'), Float64Array) };
  return {
    key,
    kind,
    state,
    present: JSON.parse(section('json').toString('utf8')) as JsonValue[],
  };
}

/** Null for bytes this version does not read. */
export function readRunTable(bytes: Buffer): RunTable | null {
  const header: ColumnHeader | null = unpack(bytes);
  if (!header) return null;
  const raw = (name: string): Buffer => {
    const [offset, length] = header.sections[name]!;
    return bytes.subarray(offset, offset + length);
  };
  return {
    n: header.n,
    joined: raw('ids').toString(header.ids),
    idEnds: view(raw('idEnds'), Uint32Array),
    rowids: view(raw('rowids'), Float64Array),
    input: view(raw('input'), Uint32Array),
    output: view(raw('output'), Uint32Array),
    errors:
      'errors' in header.sections
        ? (JSON.parse(raw('errors').toString('utf8')) as (string | null)[])
        : null,
    fields: header.fields.map(({ key, kind }, f) =>
      field(key, kind, (part) => raw(`f${f}.${part}`)),
    ),
  };
}
