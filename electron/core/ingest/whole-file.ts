import fs from 'node:fs';

/**
 * Files up to this size are read into the thread's reused buffer (which is kept, so it never
 * grows past twice this); a larger one is read into a buffer of its own.
 */
export const REUSED_MAX_BYTES = 8 * 1024 ** 2;
const FIRST_CAPACITY = 1024 ** 2;

/**
 * The thread's buffer while no reader holds it; null while one does (a unit imported while
 * another awaits), and then a second reader reads into memory of its own.
 */
let spare: Buffer | null = null;

/** A whole file's bytes, valid until `release`: they may lie in a buffer the next file reuses. */
export interface WholeFile {
  bytes: Buffer;
  release(): void;
}

/** A power of two above `size` (1 MB at least): a read of a file that did not grow ends in room. */
function capacityFor(size: number): number {
  let capacity = FIRST_CAPACITY;
  while (capacity <= size) capacity *= 2;
  return capacity;
}

/** Reads `fd` from its start to its end into `buffer`, doubling it whenever it fills. */
export function readToEnd(fd: number, buffer: Buffer): { buffer: Buffer; length: number } {
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const grown = Buffer.allocUnsafeSlow(buffer.length * 2);
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const n = fs.readSync(fd, buffer, length, buffer.length - length, length);
    if (n === 0) return { buffer, length };
    length += n;
  }
}

/**
 * A file read whole, as fs.readFileSync reads it. Each file read into fresh memory costs the
 * kernel a page fault and a cleared page per 4 KB, as much CPU as the copy itself; a file no
 * larger than REUSED_MAX_BYTES lands in one buffer per thread instead, kept from file to file
 * and lent to one reader at a time (another reader meanwhile gets fresh memory). Nothing may
 * keep `bytes`, or a view of them, past `release`: copy what must outlive the unit.
 */
export function readWholeFile(file: string): WholeFile {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size > REUSED_MAX_BYTES) {
      return { bytes: fs.readFileSync(fd), release: () => undefined };
    }
    const start = spare && spare.length > size ? spare : Buffer.allocUnsafeSlow(capacityFor(size));
    spare = null;
    let read: { buffer: Buffer; length: number };
    try {
      read = readToEnd(fd, start);
    } catch (error) {
      spare = start;
      throw error;
    }
    let released = false;
    return {
      bytes: read.buffer.subarray(0, read.length),
      release: () => {
        if (released) return;
        released = true;
        // A file that grew while it was read may have outgrown the cap: that buffer is let go.
        spare = read.buffer.length <= 2 * REUSED_MAX_BYTES ? read.buffer : null;
      },
    };
  } finally {
    fs.closeSync(fd);
  }
}
