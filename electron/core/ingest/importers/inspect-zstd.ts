import { Decompress } from 'fzstd';

/**
 * Zstandard-compressed zip entries (zip method 93), which Inspect writes by default since
 * 0.3.206. The decoder allocates the window each frame header asks for, and a frame may ask
 * for up to 2 GiB whatever it holds; so before decoding, every frame's window is lowered to
 * the entry's declared size (a back-reference can never reach further back than the bytes
 * already produced), and the output stops at the declared size.
 */

export const ZSTD_METHOD = 93;

/** The entry decodes to more than the limit: the caller reports it as corrupt or a bomb. */
export class ExpandsBeyond extends Error {}

const FRAME_MAGIC = 0xfd2fb528;
const MIN_WINDOW_LOG = 10;

function damaged(what: string): Error {
  return new Error(`the zstd data is damaged (${what})`);
}

function windowOf(descriptor: number): number {
  const base = 2 ** (MIN_WINDOW_LOG + (descriptor >> 3));
  return base + (base / 8) * (descriptor & 7);
}

/** The smallest window descriptor whose window holds `bytes`. */
function descriptorFor(bytes: number): number {
  for (let descriptor = 0; descriptor < 256; descriptor++) {
    if (windowOf(descriptor) >= bytes) return descriptor;
  }
  return 255;
}

function readUIntLE(data: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let i = width - 1; i >= 0; i--) value = value * 256 + data[at + i]!;
  return value;
}

const DICT_ID_BYTES = [0, 1, 2, 4];

/**
 * Walks the frames of `data` by their block headers (no decoding), lowering each frame's
 * window to what `limit` output bytes can need, in place. A frame that declares more content
 * than the limit is refused here, before anything is allocated for it.
 */
function clampWindows(data: Uint8Array, limit: number): void {
  let at = 0;
  while (at < data.length) {
    if (data.length - at < 4) throw damaged('a frame is cut short');
    const magic = readUIntLE(data, at, 4);
    if (magic >>> 4 === 0x184d2a5) {
      // A skippable frame: 4-byte magic, 4-byte length, then that many ignored bytes.
      if (data.length - at < 8) throw damaged('a frame is cut short');
      at += 8 + readUIntLE(data, at + 4, 4);
      continue;
    }
    if (magic !== FRAME_MAGIC) throw damaged('no frame header where one should start');
    const flags = data[at + 4];
    if (flags === undefined) throw damaged('a frame header is cut short');
    const singleSegment = (flags >> 5) & 1;
    const sizeFlag = flags >> 6;
    const sizeBytes = sizeFlag === 0 ? singleSegment : 2 ** sizeFlag;
    const windowAt = at + 5;
    const sizeAt = windowAt + (singleSegment ? 0 : 1) + DICT_ID_BYTES[flags & 3]!;
    if (sizeAt + sizeBytes > data.length) throw damaged('a frame header is cut short');
    if (sizeBytes > 0) {
      const content = readUIntLE(data, sizeAt, sizeBytes) + (sizeBytes === 2 ? 256 : 0);
      if (content > limit) throw new ExpandsBeyond();
    }
    if (!singleSegment && windowOf(data[windowAt]!) > limit) {
      data[windowAt] = descriptorFor(limit);
    }
    at = sizeAt + sizeBytes;
    for (let last = 0; !last;) {
      if (at + 3 > data.length) throw damaged('a block header is cut short');
      const header = readUIntLE(data, at, 3);
      last = header & 1;
      const type = (header >> 1) & 3;
      if (type === 3) throw damaged('a reserved block type');
      at += 3 + (type === 1 ? 1 : header >>> 3);
    }
    at += (flags >> 2) & 1 ? 4 : 0;
  }
  if (at > data.length) throw damaged('the last frame is cut short');
}

/**
 * Decodes a whole entry of `packed` bytes (which this call may modify) into exactly the bytes
 * it holds, throwing ExpandsBeyond as soon as they pass `limit`.
 */
export function unzstd(packed: Uint8Array, limit: number): Buffer {
  clampWindows(packed, limit);
  const out = Buffer.allocUnsafe(limit);
  let length = 0;
  const decoder = new Decompress((chunk) => {
    if (length + chunk.length > limit) throw new ExpandsBeyond();
    // Copied: the decoder reuses its window buffer for the next blocks.
    out.set(chunk, length);
    length += chunk.length;
  });
  decoder.push(packed, true);
  return out.subarray(0, length);
}
