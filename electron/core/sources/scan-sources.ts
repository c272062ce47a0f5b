import path from 'node:path';
import { scanPaths, type ScanResult } from '../ingest/scan';
import { isS3Url, parseS3Url, formatS3Url, type S3Settings } from './s3-location';
import type { RemoteUnit } from './s3-objects';
import { scanBucket } from './s3-scan';

/**
 * The roots of an index pass, on disk or in an object store, scanned into one list of units.
 */

export interface SourcesScan extends ScanResult {
  /** The units whose files are objects, by unit path. */
  remote: Map<string, RemoteUnit>;
  /** Roots that could not be listed: what the library holds under them is left as it is. */
  unlisted: string[];
}

/** A root as the library names it: an absolute path, or a canonical s3:// address. */
export function resolveRoot(root: string): string {
  return isS3Url(root) ? formatS3Url(parseS3Url(root)) : path.resolve(root);
}

/** The root a unit path lies under (null: none of them). */
export function rootOf(unitPath: string, roots: string[]): string | null {
  return (
    roots.find((root) => {
      const sep = isS3Url(root) ? '/' : path.sep;
      return unitPath === root || unitPath.startsWith(root.endsWith(sep) ? root : root + sep);
    }) ?? null
  );
}

const byPath = (a: { path: string }, b: { path: string }) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

export async function scanSources(
  roots: string[],
  settings: S3Settings,
  signal: AbortSignal,
): Promise<SourcesScan> {
  const local = await scanPaths(
    roots.filter((root) => !isS3Url(root)),
    { signal },
  );
  const scan: SourcesScan = { ...local, remote: new Map(), unlisted: [] };
  for (const root of roots.filter(isS3Url)) {
    const bucket = await scanBucket(parseS3Url(root), settings, signal);
    // Two roots, one inside the other, list some units twice: each is indexed once.
    scan.units.push(...bucket.units.filter((unit) => !scan.remote.has(unit.path)));
    scan.problems.push(...bucket.problems);
    for (const [unitPath, remote] of bucket.remote) scan.remote.set(unitPath, remote);
    if (!bucket.complete) scan.unlisted.push(root);
  }
  scan.units.sort(byPath);
  scan.problems.sort(byPath);
  return scan;
}
