import path from 'node:path';

/**
 * Where a file lives, for the run ids derived from it when the file names none (a JSON Lines
 * run, a promptfoo output without an evalId, lm-eval samples without results). A file on
 * disk lives at its absolute path. A local copy of an object lives at the object's address:
 * its copy sits in a fresh temporary folder on every import, and an id hashed from that would
 * change each time the object is read again.
 */
const copies = new Map<string, string>();

/** Files under `dir` are copies of the objects under `address` (`dir/x` is `address/x`). */
export function registerCopies(dir: string, address: string): void {
  copies.set(path.resolve(dir), address);
}

export function forgetCopies(dir: string): void {
  copies.delete(path.resolve(dir));
}

export function locationOf(file: string): string {
  const absolute = path.resolve(file);
  for (const [dir, address] of copies) {
    if (absolute.startsWith(dir + path.sep)) {
      return `${address}/${path.relative(dir, absolute).split(path.sep).join('/')}`;
    }
  }
  return absolute;
}
