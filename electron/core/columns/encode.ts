import type { JsonObject } from '../../../shared/model';
import { FieldColumn } from './field-column';
import { HASH_BYTES, pack, type FieldHeader, type Section } from './format';
import { bytesOf, float64s } from './growing';

/** One example as the column store takes it: hashes as hex, fields as imported. */
export interface ColumnRow {
  id: string;
  rowid: number;
  inputHash: string;
  outputHash: string;
  error: string | null;
  fields: JsonObject;
}

/** Every code unit fits in a byte. */
function oneByte(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/**
 * The value of each hex digit by its code unit: a run's two hashes per example decoded here
 * cost less than by `Buffer.write(hex)`, a native call each (~75 ns against ~100).
 */
const NIBBLE = new Uint8Array(128);
for (let d = 0; d < 16; d++) {
  NIBBLE['0123456789abcdef'.charCodeAt(d)] = d;
  NIBBLE['0123456789ABCDEF'.charCodeAt(d)] = d;
}

/**
 * Fixed-size binary hashes appended one by one into one growing buffer: a million runs' hex
 * strings held as strings until the encode cost over 100 MB per column.
 */
class HashColumn {
  private bytes = Buffer.alloc(1024 * HASH_BYTES);
  private count = 0;

  push(hex: string): void {
    let at = this.count++ * HASH_BYTES;
    const end = at + HASH_BYTES;
    if (end > this.bytes.length) {
      const grown = Buffer.alloc(this.bytes.length * 2);
      this.bytes.copy(grown);
      this.bytes = grown;
    }
    const bytes = this.bytes;
    for (let i = 0; at < end; i += 2)
      bytes[at++] = (NIBBLE[hex.charCodeAt(i)]! << 4) | NIBBLE[hex.charCodeAt(i + 1)]!;
  }

  /**
   * The hashes in `order`, written where the store puts them: in one copy when the rows came
   * sorted (`order` is null), as most runs' ids do, rather than a copy per row.
   */
  ordered(order: number[] | null): Section {
    const byteLength = this.count * HASH_BYTES;
    if (order === null)
      return { byteLength, writeTo: (out, offset) => this.bytes.copy(out, offset, 0, byteLength) };
    return {
      byteLength,
      writeTo: (out, offset) =>
        order.forEach((i, k) =>
          this.bytes.copy(out, offset + k * HASH_BYTES, i * HASH_BYTES, (i + 1) * HASH_BYTES),
        ),
    };
  }
}

/**
 * Collects a run's examples (in any number of batches, as a large file is read) and encodes
 * them as one column store, rows sorted by id in code-unit order — the order the comparison
 * pairs in, so loading needs no sort. Ids are unique within a run (the examples table's key).
 */
export class RunColumnsBuilder {
  private readonly ids: string[] = [];
  private readonly rowids = float64s();
  private readonly inputHashes = new HashColumn();
  private readonly outputHashes = new HashColumn();
  /** By row, only the rows with an error: most have none. */
  private readonly errors = new Map<number, string>();
  private readonly fields = new Map<string, FieldColumn>();
  private lastKeys: string[] = [];
  private lastColumns: FieldColumn[] = [];

  add(row: ColumnRow): void {
    this.push(row.id, row.rowid, row.inputHash, row.outputHash, row.error, row.fields);
  }

  /** `add` without a row object: the indexer calls it for every example. */
  push(
    id: string,
    rowid: number,
    inputHash: string,
    outputHash: string,
    error: string | null,
    fields: JsonObject,
  ): void {
    const i = this.ids.length;
    this.ids.push(id);
    this.rowids.push(rowid);
    this.inputHashes.push(inputHash);
    this.outputHashes.push(outputHash);
    if (error !== null) this.errors.set(i, error);
    const keys = Object.keys(fields);
    const columns = this.columnsOf(keys);
    for (let k = 0; k < keys.length; k++) columns[k]!.add(i, fields[keys[k]!]);
  }

  /**
   * The column of each key, in their order: a run's examples mostly repeat one shape, so the
   * last shape's columns are kept rather than looked up by key for every value.
   */
  private columnsOf(keys: string[]): FieldColumn[] {
    const last = this.lastKeys;
    let same = keys.length === last.length;
    for (let k = 0; same && k < keys.length; k++) same = keys[k] === last[k];
    if (same) return this.lastColumns;
    this.lastKeys = keys;
    return (this.lastColumns = keys.map((key) => {
      let column = this.fields.get(key);
      if (!column) this.fields.set(key, (column = new FieldColumn()));
      return column;
    }));
  }

  encode(): Buffer {
    const n = this.ids.length;
    const ids = this.ids;
    const order = this.sortOrder();
    const sorted = order === null;
    // position[i]: where original row i lands in the sorted store.
    const position = new Uint32Array(n);
    for (let k = 0; k < n; k++) position[sorted ? k : order[k]!] = k;
    const sections = new Map<string, Section>();
    // One string and where each id ends in it: slicing it back is several times faster than
    // parsing a JSON array of a million ids.
    const idEnds = new Uint32Array(n);
    let end = 0;
    for (let k = 0; k < n; k++) idEnds[k] = end += ids[sorted ? k : order[k]!]!.length;
    const joined = (sorted ? ids : order.map((i) => ids[i])).join('');
    const idsEncoding = oneByte(joined) ? 'latin1' : 'utf16le';
    sections.set('ids', {
      byteLength: Buffer.byteLength(joined, idsEncoding),
      writeTo: (out, offset) => out.write(joined, offset, idsEncoding),
    });
    sections.set('idEnds', bytesOf(idEnds));
    const rowids = this.rowids.values();
    sections.set('rowids', bytesOf(sorted ? rowids : Float64Array.from(order, (i) => rowids[i]!)));
    sections.set('input', this.inputHashes.ordered(order));
    sections.set('output', this.outputHashes.ordered(order));
    if (this.errors.size > 0) {
      const errors = Array.from(
        { length: n },
        (_, k) => this.errors.get(sorted ? k : order[k]!) ?? null,
      );
      sections.set('errors', Buffer.from(JSON.stringify(errors), 'utf8'));
    }
    const headers: FieldHeader[] = [];
    const keys = [...this.fields.keys()].sort();
    keys.forEach((key, f) => {
      const column = this.fields.get(key)!;
      headers.push({ key, kind: column.kind() });
      for (const [part, bytes] of column.encode(position, n)) sections.set(`f${f}.${part}`, bytes);
    });
    return pack(n, idsEncoding, headers, sections);
  }

  /** Null when the rows came sorted by id, as most runs' do: no order to apply. */
  private sortOrder(): number[] | null {
    const ids = this.ids;
    let sorted = true;
    for (let i = 1; i < ids.length && sorted; i++) sorted = ids[i - 1]! < ids[i]!;
    if (sorted) return null;
    const order = Array.from(ids, (_, i) => i);
    return order.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b));
  }
}
