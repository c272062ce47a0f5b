import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';

export function sha256Text(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Streams every file of a unit through one hash, so a 2 GB file is never held in memory. */
export async function sha256Files(files: string[], signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`\0${file}\0`);
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
      if (signal?.aborted) throw new Error('Cancelled');
      hash.update(chunk as Buffer);
    }
  }
  return hash.digest('hex');
}

/** The same hash as sha256Files for one file whose bytes are already read. */
export function sha256FileBytes(file: string, bytes: Uint8Array): string {
  return createHash('sha256').update(`\0${file}\0`).update(bytes).digest('hex');
}

/** The hash sha256Files takes of one file, to be fed the file's bytes in order. */
export function sha256OfFile(file: string): Hash {
  return createHash('sha256').update(`\0${file}\0`);
}
