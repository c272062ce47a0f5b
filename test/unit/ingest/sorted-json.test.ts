import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../shared/model';
import { sortedJson } from '../../../electron/core/ingest/prepare';

/** The definition: every object's keys sorted, key by key, at every depth. */
function reference(value: JsonValue | undefined): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const flatValue = fc.oneof(
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.NaN, Infinity, -0),
);
const key = fc.oneof(fc.string(), fc.constantFrom('9', '10', '0', '__proto__', 'toJSON'));

describe('sortedJson', () => {
  it('writes flat and nested objects exactly as the key-by-key definition', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.dictionary(key, flatValue),
          fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>,
        ),
        (value) => {
          expect(sortedJson(value as JsonValue)).toBe(reference(value as JsonValue));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('sorts keys that JSON.stringify would write in another order', () => {
    // Integer-like keys come first and in numeric order in an object's own key order.
    const fields = JSON.parse('{"b":1,"10":2,"9":3,"a":{"y":1,"x":2}}') as JsonValue;
    expect(sortedJson(fields)).toBe('{"10":2,"9":3,"a":{"x":2,"y":1},"b":1}');
    expect(sortedJson({ z: 1, a: Number.NaN })).toBe('{"a":null,"z":1}');
  });

  it('writes runs of objects of one shape, nested in one another or not, each right', () => {
    const shape = fc.dictionary(key, flatValue, { maxKeys: 4 });
    fc.assert(
      fc.property(fc.array(fc.oneof(shape, fc.dictionary(key, shape))), (objects) => {
        for (const o of [...objects, ...objects])
          expect(sortedJson(o as JsonValue)).toBe(reference(o as JsonValue));
      }),
    );
    const same = { b: { b: 1, a: 2 }, a: { b: 3, a: 4 } };
    expect(sortedJson(same)).toBe('{"a":{"a":4,"b":3},"b":{"a":2,"b":1}}');
    expect(sortedJson({})).toBe('{}');
  });
});
