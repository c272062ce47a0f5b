import { inflateRawSync } from 'node:zlib';
import type { JsonObject } from '../../../shared/model';

/** Why a row's texts cannot be given: its source file changed or is gone since indexing. */
export type Unavailable = 'source-changed' | 'source-missing';

/**
 * What a reader gets of one example besides its id and hashes (which the column store holds).
 * When `unavailable` is set (only a `located` block's rows, texts/located.ts), input and output
 * are empty: never texts other than the ones indexed.
 */
export interface TextRow {
  input: string;
  output: string;
  fields: JsonObject;
  target: string | null;
  error: string | null;
  unavailable: Unavailable | null;
}

/** One example as the indexer hands it over: its fields already as sorted-key JSON text. */
export interface TextInput {
  input: string;
  output: string;
  /** JSON of the fields with sorted keys (ingest/prepare.ts), so equal fields give equal text. */
  fields: string;
  target: string | null;
  error: string | null;
}

/**
 * Examples per block: a block is the unit read, decoded and compressed. Small enough that an
 * explorer page (a few hundred examples from anywhere in a run, once sorted by a difference)
 * decodes little beyond itself: at 1,024 such a page at a million pairs took ~250 ms at p95,
 * most of it inflating whole blocks for one row each. Large enough that a run of a million is
 * four thousand rows of `run_texts`, not a million, and that deflate (a 32 KiB window) loses
 * nothing to the block's edges.
 */
export const BLOCK_SIZE = 256;

/**
 * How a block's bytes are stored: `json` as the indexer writes it when its texts cannot be
 * located in their source, `located` (texts/located.ts) when they can, `sections`
 * (texts/sections.ts) as the background archive (texts/archive.ts) rewrites either, and
 * `deflate`, the json bytes compressed whole, as the archive wrote them before `sections`.
 */
export type StoredEncoding = 'json' | 'deflate';
export type BlockEncoding = StoredEncoding | 'located' | 'sections';

/** Which texts of a row a reader wants: an explorer page shows no output, one input at most. */
export interface Wanted {
  input: boolean;
  output: boolean;
}

export const WHOLE: Wanted = { input: true, output: true };

/** A row read in part: a text not asked for is null, one asked for is as in `TextRow`. */
export interface PartialRow extends Omit<TextRow, 'input' | 'output'> {
  input: string | null;
  output: string | null;
}

/**
 * A row with only the texts `want` asks for: each text is a function, so an encoding that
 * stores texts apart (texts/sections.ts) reads one only when it is asked for.
 */
export function partialRow(
  want: Wanted,
  text: { input: () => string; output: () => string },
  rest: Pick<TextRow, 'fields' | 'target' | 'error' | 'unavailable'>,
): PartialRow {
  return {
    input: want.input ? text.input() : null,
    output: want.output ? text.output() : null,
    ...rest,
  };
}

/**
 * A stored block opened for reading: each encoding reads only what the rows asked for need
 * (texts/read.ts keeps the opened blocks, so asking again for other rows reads no more twice).
 */
export interface BlockRows {
  readonly length: number;
  /** The rows at these indices, in the order given, with the texts `want` asks for. */
  rows(indices: readonly number[], want: Wanted): PartialRow[];
}

/** The block's examples as one JSON array of [input, output, fields, target, error] arrays. */
export function encodeJsonBlock(rows: readonly TextInput[]): Buffer {
  const parts = rows.map(
    (r) =>
      `[${JSON.stringify(r.input)},${JSON.stringify(r.output)},${r.fields},${JSON.stringify(r.target)},${JSON.stringify(r.error)}]`,
  );
  return Buffer.from(`[${parts.join(',')}]`, 'utf8');
}

type Packed = [string, string, JsonObject, string | null, string | null];

/** A `json` or `deflate` block: one JSON array, so every row is parsed to read any of them. */
export class PackedBlock implements BlockRows {
  private readonly packed: Packed[];

  constructor(encoding: StoredEncoding, data: Buffer) {
    const json = encoding === 'deflate' ? inflateRawSync(data) : data;
    this.packed = JSON.parse(json.toString('utf8')) as Packed[];
  }

  get length(): number {
    return this.packed.length;
  }

  rows(indices: readonly number[], want: Wanted): PartialRow[] {
    return indices.map((i) => {
      const [input, output, fields, target, error] = this.packed[i]!;
      return partialRow(
        want,
        { input: () => input, output: () => output },
        { fields, target, error, unavailable: null },
      );
    });
  }
}

/** Every row of a block, whole. */
export function wholeRows(block: BlockRows): TextRow[] {
  const all = Array.from({ length: block.length }, (_, i) => i);
  // Asked for both texts, every row has them (empty when unavailable).
  return block.rows(all, WHOLE) as TextRow[];
}

export function decodeStoredBlock(encoding: StoredEncoding, data: Buffer): TextRow[] {
  return wholeRows(new PackedBlock(encoding, data));
}
