import { deflateRawSync, inflateRawSync } from 'node:zlib';
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
 * located in their source, `located` (texts/located.ts) when they can, `deflate` the json
 * bytes compressed by the background archive (texts/archive.ts).
 */
export type StoredEncoding = 'json' | 'deflate';
export type BlockEncoding = StoredEncoding | 'located';

/** The block's examples as one JSON array of [input, output, fields, target, error] arrays. */
export function encodeJsonBlock(rows: readonly TextInput[]): Buffer {
  const parts = rows.map(
    (r) =>
      `[${JSON.stringify(r.input)},${JSON.stringify(r.output)},${r.fields},${JSON.stringify(r.target)},${JSON.stringify(r.error)}]`,
  );
  return Buffer.from(`[${parts.join(',')}]`, 'utf8');
}

type Packed = [string, string, JsonObject, string | null, string | null];

export function decodeStoredBlock(encoding: StoredEncoding, data: Buffer): TextRow[] {
  const json = encoding === 'deflate' ? inflateRawSync(data) : data;
  const packed = JSON.parse(json.toString('utf8')) as Packed[];
  return packed.map(([input, output, fields, target, error]) => ({
    input,
    output,
    fields,
    target,
    error,
    unavailable: null,
  }));
}

/**
 * The archive's form of a block. Level 2: on the benchmark's generated texts it compressed
 * ~3× faster than level 6 (64 vs 20 MB/s) for a 17% larger result (ratio 2.5 vs 2.9), and on
 * real Inspect, lm-eval and promptfoo logs 2.4× faster (240 vs 100 MB/s) for 14% larger (7.1
 * vs 8.0); level 1 was no faster, level 3 slower on generated texts. The archive runs once per
 * block, in the background, on machines that may have two cores, so its CPU time counts more
 * than the last sixth of the bytes.
 */
export function compressBlock(json: Buffer): Buffer {
  return deflateRawSync(json, { level: 2 });
}
