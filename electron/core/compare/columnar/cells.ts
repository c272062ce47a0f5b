import { passValue } from '../../../../shared/compare/criteria';
import type { JsonValue } from '../../../../shared/model';
import * as format from '../../columns/format';
import type { FieldKind } from '../../columns/format';
import type { FieldColumn, RunTable } from '../../columns/table';

/**
 * One field of one run as the columnar comparison reads it: per example, what kind of value it
 * holds (a tag) and a number standing for the value (a token). Two values are equal (canonical
 * JSON) exactly when their tags and tokens are: a number is its own token, a boolean 0 or 1, a
 * string the id its text is interned under, shared by every run of the comparison.
 */
export const TAG = {
  absent: 0,
  null: 1,
  number: 2,
  boolean: 3,
  string: 4,
  /** A list or an object: detail, never a criterion or a metric value (token 0). */
  detail: 5,
} as const;

/** Read once: a module's exports, read in a loop, can cost a property lookup each time. */
const { CODE_ABSENT, CODE_NULL, NULL, TRUE } = format;

export interface FieldCells {
  tag: Uint8Array;
  token: Float64Array;
}

/** Interned strings and their pass/fail reading, for every run of one comparison. */
export class Strings {
  private readonly ids = new Map<string, number>();
  /** passOf[id]: the string's pass/fail value (1/0), NaN when it is neither. */
  readonly passOf: number[] = [];

  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.passOf.length;
      this.ids.set(text, id);
      this.passOf.push(passValue(text) ?? NaN);
    }
    return id;
  }
}

/**
 * A number column's states are its tags already (absent 0, null 1, a value 2): viewed in place
 * as a plain Uint8Array, the type every other column's tags have, so loops over tags see one.
 */
function numberCells(state: Uint8Array, values: Float64Array): FieldCells {
  const tag = new Uint8Array(state.buffer, state.byteOffset, state.length);
  // Absent and null rows hold 0 in the value column: every reader checks the tag first.
  return { tag, token: values };
}

/** Whether no byte is absent or null: two scans as Buffer's (memchr), not element by element. */
function noneMissing(codes: Uint8Array): boolean {
  const bytes = Buffer.from(codes.buffer, codes.byteOffset, codes.length);
  return bytes.indexOf(TAG.absent) === -1 && bytes.indexOf(TAG.null) === -1;
}

const valued = new WeakMap<FieldCells, boolean>();

/**
 * Whether every example holds a value (no absent or null tag): the tokens of such a number or
 * boolean column are then its numeric reading as they are. Asked of the same cells by the
 * tallies, the readings and the behaviour flags, so answered once.
 */
export function everyRowValued(cells: FieldCells): boolean {
  let known = valued.get(cells);
  if (known === undefined) valued.set(cells, (known = noneMissing(cells.tag)));
  return known;
}

function booleanCells(state: Uint8Array): FieldCells {
  const token = new Float64Array(state.length);
  // A value in every row (absent 0 and null 1 are the tags' codes too): tags filled natively.
  if (noneMissing(state)) {
    for (let k = 0; k < state.length; k++) if (state[k] === TRUE) token[k] = 1;
    return { tag: new Uint8Array(state.length).fill(TAG.boolean), token };
  }
  const tag = new Uint8Array(state.length);
  for (let k = 0; k < state.length; k++) {
    const s = state[k]!;
    tag[k] = s === 0 ? TAG.absent : s === NULL ? TAG.null : TAG.boolean;
    if (s === TRUE) token[k] = 1;
  }
  return { tag, token };
}

function stringCells(codes: Int32Array, dictionary: string[], strings: Strings): FieldCells {
  const tag = new Uint8Array(codes.length);
  const token = new Float64Array(codes.length);
  const ids = dictionary.map((text) => strings.id(text));
  for (let k = 0; k < codes.length; k++) {
    const code = codes[k]!;
    if (code === CODE_ABSENT) continue;
    if (code === CODE_NULL) tag[k] = TAG.null;
    else {
      tag[k] = TAG.string;
      token[k] = ids[code]!;
    }
  }
  return { tag, token };
}

/** A mixed column: each value as its own kind, parsed already. */
function jsonCells(state: Uint8Array, present: JsonValue[], strings: Strings): FieldCells {
  const tag = new Uint8Array(state.length);
  const token = new Float64Array(state.length);
  let next = 0;
  for (let k = 0; k < state.length; k++) {
    const s = state[k]!;
    if (s === 0) continue;
    if (s === NULL) {
      tag[k] = TAG.null;
      continue;
    }
    const value = present[next++]!;
    if (typeof value === 'number') {
      tag[k] = TAG.number;
      token[k] = value;
    } else if (typeof value === 'boolean') {
      tag[k] = TAG.boolean;
      token[k] = value ? 1 : 0;
    } else if (typeof value === 'string') {
      tag[k] = TAG.string;
      token[k] = strings.id(value);
    } else tag[k] = value === null ? TAG.null : TAG.detail;
  }
  return { tag, token };
}

export function fieldCells(column: FieldColumn, strings: Strings): FieldCells {
  switch (column.kind) {
    case 'number':
      return numberCells(column.state, column.values);
    case 'boolean':
      return booleanCells(column.state);
    case 'string':
      return stringCells(column.codes, column.dictionary, strings);
    case 'json':
      return jsonCells(column.state, column.present, strings);
  }
}

/** The reading that gives the same values for a column of this kind; null when none has any. */
function sameReading(kind: FieldKind | undefined, reading: Reading): Reading | null {
  switch (kind) {
    case undefined:
      return null;
    case 'number':
      return reading === 'pass' ? null : 'numeric';
    case 'boolean':
      return 'numeric';
    case 'string':
      return reading === 'numeric' ? null : 'pass';
    case 'json':
      return reading;
  }
}

/**
 * Cells and readings of number and boolean columns, which do not depend on a comparison's
 * interned strings, kept with their table while it lives: a compare worker keeps its tables
 * from one comparison to the next (columns/table-cache.ts), and these with them.
 */
const lasting = new WeakMap<RunTable, Map<string, FieldCells | Float64Array>>();

function lastingOf(table: RunTable): Map<string, FieldCells | Float64Array> {
  let byKey = lasting.get(table);
  if (!byKey) lasting.set(table, (byKey = new Map()));
  return byKey;
}

const stringFree = (column: FieldColumn | undefined) =>
  column?.kind === 'number' || column?.kind === 'boolean';

/** A run's tables and their fields' cells, each built once however many pairs use them. */
export class CellCache {
  readonly strings = new Strings();
  private readonly cells = new Map<RunTable, Map<string, FieldCells>>();
  private readonly absent = new Map<number, FieldCells>();
  private readonly readings = new Map<RunTable, Map<string, Float64Array>>();
  private readonly nan = new Map<number, Float64Array>();

  /** The field's cells in `table`; all absent when the run has no such field. */
  of(table: RunTable, key: string): FieldCells {
    let byKey = this.cells.get(table);
    if (!byKey) this.cells.set(table, (byKey = new Map()));
    let cells = byKey.get(key);
    if (!cells) {
      const column = table.fields.find((f) => f.key === key);
      const kept = stringFree(column) ? lastingOf(table) : null;
      cells = kept?.get(`cells\u0000${key}`) as FieldCells | undefined;
      if (!cells) {
        cells = column ? fieldCells(column, this.strings) : this.none(table.n);
        kept?.set(`cells\u0000${key}`, cells);
      }
      byKey.set(key, cells);
    }
    return cells;
  }

  /**
   * The field's values in `table` as numbers under `reading` (readAll), built once; readings
   * that agree for the column's kind (a number column's `numeric` and `metric`, all three of a
   * boolean column's) share one array, and a reading that finds no value shares one of NaN.
   */
  read(table: RunTable, key: string, reading: Reading): Float64Array {
    const column = table.fields.find((f) => f.key === key);
    const same = sameReading(column?.kind, reading);
    if (same === null) return this.nothing(table.n);
    const cacheKey = `${same}\u0000${key}`;
    let byKey = this.readings.get(table);
    if (!byKey) this.readings.set(table, (byKey = new Map()));
    let values = byKey.get(cacheKey);
    if (!values) {
      const kept = stringFree(column) ? lastingOf(table) : null;
      values = kept?.get(cacheKey) as Float64Array | undefined;
      if (!values) {
        const cells = this.of(table, key);
        // A number or boolean column reads as numbers (sameReading), its tokens where it has values.
        values =
          kept && everyRowValued(cells) ? cells.token : readAll(cells, same, this.strings.passOf);
        kept?.set(cacheKey, values);
      }
      byKey.set(cacheKey, values);
    }
    return values;
  }

  private nothing(n: number): Float64Array {
    let values = this.nan.get(n);
    if (!values) this.nan.set(n, (values = new Float64Array(n).fill(NaN)));
    return values;
  }

  private none(n: number): FieldCells {
    let cells = this.absent.get(n);
    if (!cells)
      this.absent.set(n, (cells = { tag: new Uint8Array(n), token: new Float64Array(n) }));
    return cells;
  }
}

const { number: NUMBER, boolean: BOOLEAN, string: STRING } = TAG;

/**
 * How a value is read as a number: `numeric` is numericValue (numbers and booleans as
 * themselves), `pass` passValue (booleans as 0/1, pass/fail words as 1/0), `metric`
 * exampleValue (numericValue, else passValue).
 */
export type Reading = 'numeric' | 'pass' | 'metric';

/** Every example's value under `reading`, NaN where it has none: one array to loop over. */
export function readAll(
  cells: FieldCells,
  reading: Reading,
  passOf: readonly number[],
): Float64Array {
  const { tag, token } = cells;
  const out = new Float64Array(tag.length);
  for (let k = 0; k < tag.length; k++) {
    const t = tag[k];
    if (t === BOOLEAN || (t === NUMBER && reading !== 'pass')) out[k] = token[k]!;
    else if (t === STRING && reading !== 'numeric') out[k] = passOf[token[k]!]!;
    else out[k] = NaN;
  }
  return out;
}
