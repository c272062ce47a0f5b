import type { JsonObject, JsonValue } from '../../../shared/model';
import { sortedJson } from '../ingest/prepare';
import {
  CODE_ABSENT,
  CODE_NULL,
  HASH_BYTES,
  NULL,
  pack,
  PRESENT,
  TRUE,
  type FieldHeader,
  type FieldKind,
} from './format';

/** One example as the column store takes it: hashes as hex, fields as imported. */
export interface ColumnRow {
  id: string;
  rowid: number;
  inputHash: string;
  outputHash: string;
  error: string | null;
  fields: JsonObject;
}

/**
 * A field's value as the examples table gives it back (JSON.parse of its sorted JSON): a
 * number that is not finite was written as null, and -0 as 0.
 */
type Stored = null | number | boolean | string | { json: string };

function stored(value: JsonValue | undefined): Stored {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  return { json: sortedJson(value) };
}

interface FieldValues {
  rows: number[];
  values: Stored[];
}

function kindOf(values: Stored[]): FieldKind {
  let kind: FieldKind | null = null;
  for (const value of values) {
    if (value === null) continue;
    const k: FieldKind =
      typeof value === 'object' ? 'json' : (typeof value as 'number' | 'boolean' | 'string');
    if (kind === null) kind = k;
    else if (kind !== k) return 'json';
  }
  return kind ?? 'number';
}

/** Every code unit fits in a byte. */
function oneByte(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

const bytesOf = (array: ArrayBufferView) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/**
 * Fixed-size binary hashes appended one by one into one growing buffer: a million runs' hex
 * strings held as strings until the encode cost over 100 MB per column.
 */
class HashColumn {
  private bytes = Buffer.alloc(1024 * HASH_BYTES);
  private count = 0;

  push(hex: string): void {
    if ((this.count + 1) * HASH_BYTES > this.bytes.length) {
      const grown = Buffer.alloc(this.bytes.length * 2);
      this.bytes.copy(grown);
      this.bytes = grown;
    }
    this.bytes.write(hex, this.count++ * HASH_BYTES, HASH_BYTES, 'hex');
  }

  /** The hashes in `order`. */
  ordered(order: number[]): Uint8Array {
    const out = Buffer.alloc(order.length * HASH_BYTES);
    order.forEach((i, k) =>
      this.bytes.copy(out, k * HASH_BYTES, i * HASH_BYTES, (i + 1) * HASH_BYTES),
    );
    return out;
  }
}

/**
 * Collects a run's examples (in any number of batches, as a large file is read) and encodes
 * them as one column store, rows sorted by id in code-unit order — the order the comparison
 * pairs in, so loading needs no sort. Ids are unique within a run (the examples table's key).
 */
export class RunColumnsBuilder {
  private readonly ids: string[] = [];
  private readonly rowids: number[] = [];
  private readonly inputHashes = new HashColumn();
  private readonly outputHashes = new HashColumn();
  private readonly errors: (string | null)[] = [];
  private readonly fields = new Map<string, FieldValues>();

  add(row: ColumnRow): void {
    const i = this.ids.length;
    this.ids.push(row.id);
    this.rowids.push(row.rowid);
    this.inputHashes.push(row.inputHash);
    this.outputHashes.push(row.outputHash);
    this.errors.push(row.error);
    for (const key of Object.keys(row.fields)) {
      let column = this.fields.get(key);
      if (!column) this.fields.set(key, (column = { rows: [], values: [] }));
      column.rows.push(i);
      column.values.push(stored(row.fields[key]));
    }
  }

  /** The lowest and highest rowid of the examples added, or null for none. */
  span(): [number, number] | null {
    if (this.rowids.length === 0) return null;
    let lo = Infinity;
    let hi = -Infinity;
    for (const rowid of this.rowids) {
      if (rowid < lo) lo = rowid;
      if (rowid > hi) hi = rowid;
    }
    return [lo, hi];
  }

  encode(): Buffer {
    const n = this.ids.length;
    const order = this.sortOrder();
    // position[i]: where original row i lands in the sorted store.
    const position = new Uint32Array(n);
    order.forEach((i, k) => (position[i] = k));
    const sections = new Map<string, Uint8Array>();
    // One string and where each id ends in it: slicing it back is several times faster than
    // parsing a JSON array of a million ids.
    const idEnds = new Uint32Array(n);
    let end = 0;
    order.forEach((i, k) => (idEnds[k] = end += this.ids[i]!.length));
    const joined = order.map((i) => this.ids[i]).join('');
    const idsEncoding = oneByte(joined) ? 'latin1' : 'utf16le';
    sections.set('ids', Buffer.from(joined, idsEncoding));
    sections.set('idEnds', bytesOf(idEnds));
    sections.set('rowids', bytesOf(Float64Array.from(order, (i) => this.rowids[i]!)));
    sections.set('input', this.inputHashes.ordered(order));
    sections.set('output', this.outputHashes.ordered(order));
    if (this.errors.some((e) => e !== null))
      sections.set('errors', Buffer.from(JSON.stringify(order.map((i) => this.errors[i])), 'utf8'));
    const headers: FieldHeader[] = [];
    const keys = [...this.fields.keys()].sort();
    keys.forEach((key, f) => {
      const column = this.fields.get(key)!;
      const kind = kindOf(column.values);
      headers.push({ key, kind });
      for (const [part, bytes] of encodeField(kind, column, position, n))
        sections.set(`f${f}.${part}`, bytes);
    });
    return pack(n, idsEncoding, headers, sections);
  }

  private sortOrder(): number[] {
    const order = Array.from(this.ids, (_, i) => i);
    const ids = this.ids;
    let sorted = true;
    for (let i = 1; i < ids.length && sorted; i++) sorted = ids[i - 1]! < ids[i]!;
    if (!sorted) order.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b));
    return order;
  }
}

function encodeField(
  kind: FieldKind,
  column: FieldValues,
  position: Uint32Array,
  n: number,
): [string, Uint8Array][] {
  if (kind === 'string') {
    const codes = new Int32Array(n).fill(CODE_ABSENT);
    const dictionary = new Map<string, number>();
    column.rows.forEach((i, j) => {
      const value = column.values[j] as string | null;
      let code = CODE_NULL;
      if (value !== null) {
        code = dictionary.get(value) ?? dictionary.size;
        if (code === dictionary.size) dictionary.set(value, code);
      }
      codes[position[i]!] = code;
    });
    return [
      ['codes', bytesOf(codes)],
      ['dict', Buffer.from(JSON.stringify([...dictionary.keys()]), 'utf8')],
    ];
  }
  const state = new Uint8Array(n);
  if (kind === 'boolean') {
    column.rows.forEach((i, j) => {
      const value = column.values[j] as boolean | null;
      state[position[i]!] = value === null ? NULL : value ? TRUE : PRESENT;
    });
    return [['state', state]];
  }
  if (kind === 'number') {
    const values = new Float64Array(n);
    column.rows.forEach((i, j) => {
      const value = column.values[j] as number | null;
      state[position[i]!] = value === null ? NULL : PRESENT;
      if (value !== null) values[position[i]!] = value;
    });
    return [
      ['state', state],
      ['values', bytesOf(values)],
    ];
  }
  // Mixed kinds, lists and objects: JSON text of the present values, in row order.
  const texts = new Array<string>(n);
  column.rows.forEach((i, j) => {
    const value = column.values[j]!;
    state[position[i]!] = value === null ? NULL : PRESENT;
    if (value !== null)
      texts[position[i]!] = typeof value === 'object' ? value.json : JSON.stringify(value);
  });
  const present: string[] = [];
  for (let k = 0; k < n; k++) if (state[k] === PRESENT) present.push(texts[k]!);
  return [
    ['state', state],
    ['json', Buffer.from(`[${present.join(',')}]`, 'utf8')],
  ];
}
