import type { JsonValue } from '../../../shared/model';
import { sortedJson } from '../ingest/prepare';
import { CODE_ABSENT, CODE_NULL, NULL, PRESENT, TRUE, type FieldKind } from './format';
import { bytes, bytesOf, float64s, int32s, uint32s } from './growing';

/**
 * What a row holds for the field, as the examples table gives the value back (JSON.parse of its
 * sorted JSON): a number that is not finite was written as null, and -0 as 0.
 */
const TAG_NULL = 0;
const TAG_NUMBER = 1;
const TAG_FALSE = 2;
const TAG_TRUE = 3;
const TAG_STRING = 4;
const TAG_JSON = 5;

/** Kinds seen among the values that are not null, one bit each. */
const SEEN_NUMBER = 1;
const SEEN_BOOLEAN = 2;
const SEEN_STRING = 4;
const SEEN_JSON = 8;

/**
 * One field of a run's examples as they are added: the rows that have the key, a tag per row,
 * numbers in a Float64 column, strings in a dictionary as they first appear, objects and lists
 * as their sorted JSON. Nothing is boxed, so a million rows cost a few bytes each.
 */
export class FieldColumn {
  private readonly rows = uint32s();
  private readonly tags = bytes();
  private readonly numbers = float64s();
  /** Per string or JSON row, in row order: its index in `strings` or `texts`. */
  private readonly codes = int32s();
  private readonly dictionary = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly texts: string[] = [];
  private seen = 0;

  add(row: number, value: JsonValue | undefined): void {
    this.rows.push(row);
    if (value === undefined || value === null) {
      this.tags.push(TAG_NULL);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        this.tags.push(TAG_NULL);
        return;
      }
      this.seen |= SEEN_NUMBER;
      this.tags.push(TAG_NUMBER);
      this.numbers.push(value === 0 ? 0 : value);
    } else if (typeof value === 'boolean') {
      this.seen |= SEEN_BOOLEAN;
      this.tags.push(value ? TAG_TRUE : TAG_FALSE);
    } else if (typeof value === 'string') {
      this.seen |= SEEN_STRING;
      this.tags.push(TAG_STRING);
      let code = this.dictionary.get(value);
      if (code === undefined) {
        code = this.strings.length;
        this.dictionary.set(value, code);
        this.strings.push(value);
      }
      this.codes.push(code);
    } else {
      this.seen |= SEEN_JSON;
      this.tags.push(TAG_JSON);
      this.codes.push(this.texts.length);
      this.texts.push(sortedJson(value));
    }
  }

  /** One kind for every value that is not null; JSON when they mix; numbers when all are null. */
  kind(): FieldKind {
    switch (this.seen) {
      case 0:
      case SEEN_NUMBER:
        return 'number';
      case SEEN_BOOLEAN:
        return 'boolean';
      case SEEN_STRING:
        return 'string';
      default:
        return 'json';
    }
  }

  /** The field's sections, rows placed at `position[row]` of `n`. */
  encode(position: Uint32Array, n: number): [string, Uint8Array][] {
    const kind = this.kind();
    const rows = this.rows.values();
    const tags = this.tags.values();
    const codes = this.codes.values();
    if (kind === 'string') {
      const coded = new Int32Array(n).fill(CODE_ABSENT);
      let c = 0;
      for (let j = 0; j < rows.length; j++)
        coded[position[rows[j]!]!] = tags[j] === TAG_STRING ? codes[c++]! : CODE_NULL;
      return [
        ['codes', bytesOf(coded)],
        ['dict', Buffer.from(JSON.stringify(this.strings), 'utf8')],
      ];
    }
    const state = new Uint8Array(n);
    if (kind === 'boolean') {
      for (let j = 0; j < rows.length; j++) {
        const tag = tags[j];
        state[position[rows[j]!]!] = tag === TAG_NULL ? NULL : tag === TAG_TRUE ? TRUE : PRESENT;
      }
      return [['state', state]];
    }
    const numbers = this.numbers.values();
    if (kind === 'number') {
      const values = new Float64Array(n);
      let v = 0;
      for (let j = 0; j < rows.length; j++) {
        const k = position[rows[j]!]!;
        if (tags[j] === TAG_NULL) {
          state[k] = NULL;
        } else {
          state[k] = PRESENT;
          values[k] = numbers[v++]!;
        }
      }
      return [
        ['state', state],
        ['values', bytesOf(values)],
      ];
    }
    // Mixed kinds, lists and objects: JSON text of the present values, in row order.
    const texts = new Array<string>(n);
    let v = 0;
    let c = 0;
    for (let j = 0; j < rows.length; j++) {
      const k = position[rows[j]!]!;
      const tag = tags[j];
      state[k] = tag === TAG_NULL ? NULL : PRESENT;
      if (tag === TAG_NUMBER) texts[k] = JSON.stringify(numbers[v++]);
      else if (tag === TAG_FALSE) texts[k] = 'false';
      else if (tag === TAG_TRUE) texts[k] = 'true';
      else if (tag === TAG_STRING) texts[k] = JSON.stringify(this.strings[codes[c++]!]);
      else if (tag === TAG_JSON) texts[k] = this.texts[codes[c++]!]!;
    }
    const present: string[] = [];
    for (let k = 0; k < n; k++) if (state[k] === PRESENT) present.push(texts[k]!);
    return [
      ['state', state],
      ['json', Buffer.from(`[${present.join(',')}]`, 'utf8')],
    ];
  }
}
