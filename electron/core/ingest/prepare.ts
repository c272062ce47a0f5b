import { hash } from 'node:crypto';
import type { ImportedExample, ImportedRun, JsonValue } from '../../../shared/model';
import type { LocatedTexts } from '../texts/locate';
import type { SourceStamp } from '../texts/located';
import { RunColumnsBuilder } from '../columns/encode';
import { NOT_LOCATED, TextBlockBuilder, type NumberedBlock } from '../texts/write';

/** How to write objects of one shape (their keys in one order) with their keys sorted. */
interface ObjectPlan {
  keys: string[];
  /** Indexes into `keys`, in sorted key order. */
  order: number[];
  /** Before each value, in sorted order: `{"key":` or `,"key":`. */
  prefixes: string[];
}

function planFor(keys: string[]): ObjectPlan {
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
  const prefixes = order.map((k, i) => `${i === 0 ? '{' : ','}${JSON.stringify(keys[k])}:`);
  return { keys, order, prefixes };
}

/** The last shape written: the examples of a run repeat the same fields, in the same order. */
let lastPlan = planFor([]);

function samePlan(keys: string[]): ObjectPlan {
  const plan = lastPlan;
  let same = keys.length === plan.keys.length;
  for (let i = 0; same && i < keys.length; i++) same = keys[i] === plan.keys[i];
  return same ? plan : (lastPlan = planFor(keys));
}

/**
 * JSON with object keys sorted, so equal field objects give equal text (and equal hashes).
 * It runs for every example's fields: the sorted order and quoted keys of the last object's
 * shape are kept, and a number is written by String (what JSON.stringify writes for a finite
 * one), which made it several times faster than sorting, mapping and joining each object.
 */
export function sortedJson(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + sortedJson(value[i]);
    return out + ']';
  }
  const object = value as Record<string, JsonValue>;
  const keys = Object.keys(object);
  if (keys.length === 0) return '{}';
  // Held in locals: a nested object's value replaces lastPlan while this one is written.
  const { order, prefixes } = samePlan(keys);
  let out = '';
  for (let i = 0; i < order.length; i++) out += prefixes[i]! + sortedJson(object[keys[order[i]!]!]);
  return out + '}';
}

/** One-shot hashing: some 2.5× faster than createHash for short texts (two per example). */
export function sha1(text: string): string {
  return hash('sha1', text, 'hex');
}

/** Ordinals and text lengths past which a text's hash is not kept (bounds what is held). */
const MEMO_ORDINALS = 8192;
const MEMO_MAX_CHARS = 2048;

/**
 * The SHA-1 of the text last hashed at each ordinal of a run, in this worker. Runs of one
 * experiment mostly share their inputs, and often outputs, example for example, and come one
 * after another: comparing a text with the one at its ordinal in the run prepared before
 * costs a comparison of bytes, hashing it again was a tenth of an index worker's time. Equal
 * texts have equal hashes, so what is stored does not change.
 */
export class HashMemo {
  private readonly texts: string[] = [];
  private readonly hashes: string[] = [];

  hash(ordinal: number, text: string): string {
    if (ordinal >= MEMO_ORDINALS || text.length > MEMO_MAX_CHARS) return sha1(text);
    if (this.texts[ordinal] === text) return this.hashes[ordinal]!;
    const hashed = sha1(text);
    this.texts[ordinal] = text;
    this.hashes[ordinal] = hashed;
    return hashed;
  }
}

const inputHashes = new HashMemo();
const outputHashes = new HashMemo();

/**
 * What the writer stores of a run's examples, prepared in the index worker: nothing per
 * example is kept once it is in a block or the column store (batches read ahead wait for the
 * lock holding only these bytes).
 */
export interface PreparedExamples {
  /** The run's text blocks these examples complete (texts/write.ts). */
  blocks: NumberedBlock[];
  /**
   * With the run's last examples: its column store, each row's rowid its ordinal until the
   * writer makes it a key (columns/rekey.ts).
   */
  columns: Uint8Array | null;
}

/**
 * What a run's examples build as they are prepared, batch after batch, in the index worker:
 * its text blocks and its column store, so that the writer only stores bytes.
 */
export class RunBuilders {
  readonly columns = new RunColumnsBuilder();
  readonly blocks: TextBlockBuilder;
  /** The ordinal of the next example, in file order. */
  next = 0;

  constructor(stamp: SourceStamp | null = null) {
    this.blocks = new TextBlockBuilder(stamp);
  }
}

/**
 * Done in the index workers, in parallel, so the single writer only inserts: serializing and
 * hashing every example was a third of the writer's time.
 */
export function prepareExamples(
  run: ImportedRun,
  source: { stamp: SourceStamp; located: LocatedTexts[] } | null = null,
): PreparedExamples {
  return prepareExampleList(
    run.examples,
    new RunBuilders(source?.stamp ?? null),
    true,
    source?.located ?? null,
  );
}

/**
 * A batch of a run's examples, in file order: `blocks` carries a partial block from one batch
 * to the next, and the last batch also ends the run's last block. `located` says where each
 * example's texts lie in its source file (texts/locate.ts), when they were looked for.
 */
export function prepareExampleList(
  examples: ImportedExample[],
  builders: RunBuilders,
  last: boolean,
  located: LocatedTexts[] | null = null,
): PreparedExamples {
  const blocks: NumberedBlock[] = [];
  for (let i = 0; i < examples.length; i++) {
    const example = examples[i]!;
    const ordinal = builders.next++;
    const inputHash = inputHashes.hash(ordinal, example.input);
    const outputHash = outputHashes.hash(ordinal, example.output);
    builders.columns.push(
      example.id,
      ordinal,
      inputHash,
      outputHash,
      example.error,
      example.fields,
    );
    const block = builders.blocks.push({
      input: example.input,
      output: example.output,
      fields: sortedJson(example.fields),
      target: example.target,
      error: example.error,
      located: located?.[i] ?? NOT_LOCATED,
      inputHash,
      outputHash,
    });
    if (block) blocks.push(block);
  }
  const prepared: PreparedExamples = { blocks, columns: null };
  if (last) {
    prepared.blocks.push(...builders.blocks.end());
    prepared.columns = builders.columns.encode();
  }
  return prepared;
}
