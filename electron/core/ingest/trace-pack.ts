import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Trace } from '../../../shared/trace';

const RAW = 0;
const DEFLATED = 1;

/**
 * Only transcripts past this size are deflated: one zlib call costs ~40 µs whatever the input,
 * more than building a small transcript, while a long agent transcript shrinks several times.
 */
export const DEFLATE_FROM_BYTES = 4096;

/** A transcript as stored: one marker byte (raw or deflated), then its JSON. */
export function packTrace(trace: Trace): Buffer {
  const json = Buffer.from(JSON.stringify(trace), 'utf8');
  return json.length < DEFLATE_FROM_BYTES
    ? Buffer.concat([Buffer.of(RAW), json])
    : Buffer.concat([Buffer.of(DEFLATED), deflateRawSync(json, { level: 1 })]);
}

export function unpackTrace(packed: Buffer): Trace {
  const body = packed.subarray(1);
  const json = packed[0] === DEFLATED ? inflateRawSync(body) : body;
  return JSON.parse(json.toString('utf8')) as Trace;
}
