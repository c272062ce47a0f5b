import Database from 'better-sqlite3';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeRunColumns, hashKey } from '../../../electron/core/columns/decode';
import { RunColumnsBuilder, type ColumnRow } from '../../../electron/core/columns/encode';
import { readRunColumns, writeRunColumns } from '../../../electron/core/columns/store';
import { migrate } from '../../../electron/core/db/open';
import { sortedJson } from '../../../electron/core/ingest/prepare';
import type { JsonObject, JsonValue } from '../../../shared/model';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** What the examples table gives back for an example's fields: its sorted JSON, parsed. */
const fromRows = (fields: JsonObject) => JSON.parse(sortedJson(fields)) as JsonObject;

/** Keys that trip a naive decoder: the prototype's name, integer-like keys, a shared name. */
const keyArb = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', '10', '2', 'score', 'refused', 'label', ''),
  fc.string({ maxLength: 4 }),
);
const valueArb: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom(-0, NaN, Infinity, -Infinity, 0, 1e308, 5e-324, null, true, false),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('\ud800', 'a\udc00b', '😀', 'x'),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
);
const fieldsArb = fc.array(fc.tuple(keyArb, valueArb), { maxLength: 6 }).map((entries) => {
  const fields: JsonObject = {};
  for (const [key, value] of entries)
    Object.defineProperty(fields, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return fields;
});
const rowsArb = fc.uniqueArray(
  fc.record({
    id: fc.string({ unit: 'binary', maxLength: 5 }),
    fields: fieldsArb,
    error: fc.option(fc.string({ maxLength: 5 }), { nil: null }),
  }),
  { selector: (r) => r.id, maxLength: 40 },
);

function build(rows: { id: string; fields: JsonObject; error: string | null }[]): ColumnRow[] {
  return rows.map((row, i) => ({
    id: row.id,
    rowid: 100 + i,
    inputHash: sha1(`in ${row.id}`),
    outputHash: sha1(`out ${i}`),
    error: row.error,
    fields: row.fields,
  }));
}

describe('a run column store', () => {
  it('gives back what the example rows give, sorted by id, whatever the values', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const builder = new RunColumnsBuilder();
        const columnRows = build(rows);
        for (const row of columnRows) builder.add(row);
        const decoded = decodeRunColumns(builder.encode())!;
        const expected = columnRows
          .map((r) => ({
            id: r.id,
            rowid: r.rowid,
            input: hashKey(r.inputHash),
            output: hashKey(r.outputHash),
            error: r.error,
            fields: fromRows(r.fields),
          }))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        // JSON text compares key order too, which decides the order of a report's criteria.
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(expected));
        decoded.forEach((example, k) => {
          expect(Object.getPrototypeOf(example.fields)).toBe(Object.prototype);
          expect(Object.is(example.fields['x'], -0)).toBe(false);
          expect(Object.keys(example.fields)).toEqual(Object.keys(expected[k]!.fields));
        });
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['reverse', 'so the encode reorders what it grew'],
    ['id', 'so the encode copies what it grew as it is'],
  ])(
    'keeps every hash and rowid of a run larger than the builder first makes room for, added in %s order (%s)',
    (added) => {
      const builder = new RunColumnsBuilder();
      const n = 5000;
      for (let k = 0; k < n; k++) {
        const i = added === 'reverse' ? n - 1 - k : k;
        builder.add({
          id: `ex-${String(i).padStart(5, '0')}`,
          rowid: i + 1,
          inputHash: sha1(`in ${i}`),
          outputHash: sha1(`out ${i}`),
          error: null,
          fields: {},
        });
      }
      const decoded = decodeRunColumns(builder.encode())!;
      expect(decoded).toHaveLength(n);
      decoded.forEach((example, i) => {
        expect(example.rowid).toBe(i + 1);
        expect(example.input).toBe(hashKey(sha1(`in ${i}`)));
        expect(example.output).toBe(hashKey(sha1(`out ${i}`)));
      });
    },
  );

  it('keeps every field value of a run larger than its growing arrays first hold', () => {
    const n = 3000;
    const value = (i: number): JsonObject => ({
      score: i % 7 === 0 ? null : i / 4,
      refused: i % 3 === 0,
      label: `l${i % 11}`,
      ...(i % 2 === 0 ? { mixed: i % 4 === 0 ? i : `m${i}` } : {}),
      ...(i % 5 === 0 ? { list: [i, { at: i }] } : {}),
      ...(i % 13 === 0 ? { rare: null } : {}),
    });
    const rows = Array.from({ length: n }, (_, i) => ({
      id: `ex-${String(n - i).padStart(5, '0')}`,
      fields: value(i),
      error: i % 17 === 0 ? `e${i}` : null,
    }));
    const builder = new RunColumnsBuilder();
    const columnRows = build(rows);
    for (const row of columnRows) builder.add(row);
    const decoded = decodeRunColumns(builder.encode())!;
    expect(decoded).toHaveLength(n);
    const byId = new Map(columnRows.map((r) => [r.id, r]));
    for (const example of decoded) {
      const row = byId.get(example.id)!;
      expect(example.rowid).toBe(row.rowid);
      expect(example.error).toBe(row.error);
      expect(JSON.stringify(example.fields)).toBe(JSON.stringify(fromRows(row.fields)));
    }
  });

  it('keeps -0 out and a __proto__ key as an own key, as JSON.parse does', () => {
    const builder = new RunColumnsBuilder();
    builder.add({
      id: 'a',
      rowid: 1,
      inputHash: sha1('a'),
      outputHash: sha1('b'),
      error: null,
      fields: JSON.parse('{"__proto__": {"polluted": 1}, "z": 0}') as JsonObject,
    });
    builder.add({
      id: 'b',
      rowid: 2,
      inputHash: sha1('a'),
      outputHash: sha1('c'),
      error: '',
      fields: { z: -0 },
    });
    const [a, b] = decodeRunColumns(builder.encode())!;
    expect(Object.keys(a!.fields)).toEqual(['__proto__', 'z']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.is(b!.fields['z'], 0)).toBe(true);
    expect(b!.error).toBe('');
  });

  it('refuses bytes it does not know, so the loader reads the rows instead', () => {
    expect(decodeRunColumns(Buffer.from('not a column store'))).toBeNull();
  });

  it('is stored in parts when larger than one part and read back whole', () => {
    const db = new Database(':memory:');
    migrate(db);
    db.pragma('foreign_keys = OFF');
    db.prepare(
      `INSERT INTO runs (rowid, id, experiment_id, condition_name, identity_hash, settings, format, path, state, metrics, metric_definitions, provenance, warnings, example_count, expect, compare_to)
      VALUES (1, 'r', 'e', 'c', 'h', '{}', 'mechlens', 'p', 'completed', '{}', '{}', '{}', '[]', 0, '{}', '[]')`,
    ).run();
    const builder = new RunColumnsBuilder();
    for (const row of build(
      Array.from({ length: 500 }, (_, i) => ({ id: `e${i}`, fields: { s: i }, error: null })),
    ))
      builder.add(row);
    const bytes = builder.encode();
    writeRunColumns(db, 1, bytes, 1000);
    const parts = db.prepare(`SELECT count(*) FROM run_columns WHERE run_rowid = 1`).pluck().get();
    expect(parts).toBe(Math.ceil(bytes.byteLength / 1000));
    expect(readRunColumns(db, 1)!.equals(bytes)).toBe(true);
    writeRunColumns(db, 1, bytes);
    expect(db.prepare(`SELECT count(*) FROM run_columns`).pluck().get()).toBe(1);
    db.close();
  });
});
