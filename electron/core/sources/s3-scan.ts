import path from 'node:path';
import { DEFAULT_MAX_UNITS, groupFolder, skipDirectory, type ScanProblem } from '../ingest/scan';
import type { SourceUnit } from '../ingest/types';
import { s3Client, s3Sdk } from './s3-client';
import { describeS3Error } from './s3-errors';
import { formatS3Url, objectUrl, type S3Location, type S3Settings } from './s3-location';
import type { RemoteObject, RemoteUnit } from './s3-objects';

/**
 * Finds the units under an s3:// prefix from one listing (names, sizes and ETags; never an
 * object's bytes), grouped exactly as a folder on disk with the same names would be: the
 * listing is cut into folders at '/', and each folder goes through the disk scan's grouping.
 */

export interface BucketScan {
  units: SourceUnit[];
  /** Per unit path: where its objects are and what the listing said of them. */
  remote: Map<string, RemoteUnit>;
  problems: ScanProblem[];
  /** False when the listing failed: the prefix's known sources are then left as they are. */
  complete: boolean;
}

interface Folder {
  files: Map<string, RemoteObject>;
  dirs: Set<string>;
}

/**
 * A key segment that could not be a file or folder name on disk: objects under it are passed
 * over, so no key can name a path outside the worker's temporary folder.
 */
function unsafeSegment(segment: string): boolean {
  return segment === '' || segment === '.' || segment === '..' || /[\\\0]/.test(segment);
}

export async function listAll(
  location: S3Location,
  settings: S3Settings,
  signal: AbortSignal,
): Promise<RemoteObject[]> {
  const client = await s3Client(settings);
  const { ListObjectsV2Command } = await s3Sdk();
  const objects: RemoteObject[] = [];
  let token: string | undefined;
  do {
    signal.throwIfAborted();
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: location.bucket,
        Prefix: location.prefix ? location.prefix + '/' : undefined,
        ContinuationToken: token,
      }),
      { abortSignal: signal },
    );
    for (const item of page.Contents ?? []) {
      if (item.Key === undefined || item.Key.endsWith('/')) continue;
      objects.push({
        key: item.Key,
        size: item.Size ?? 0,
        etag: item.ETag ?? '',
        lastModifiedMs: item.LastModified?.getTime() ?? 0,
      });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

/** The listing as folders, relative to the prefix; unsafe keys and skipped folders left out. */
function foldersOf(objects: RemoteObject[], prefix: string): Map<string, Folder> {
  const folders = new Map<string, Folder>();
  const folder = (rel: string): Folder => {
    let f = folders.get(rel);
    if (!f) folders.set(rel, (f = { files: new Map(), dirs: new Set() }));
    return f;
  };
  folder('');
  for (const object of objects) {
    const segments = (prefix ? object.key.slice(prefix.length + 1) : object.key).split('/');
    const name = segments.pop()!;
    if ([...segments, name].some(unsafeSegment) || segments.some(skipDirectory)) continue;
    for (let i = 0; i < segments.length; i++) {
      folder(segments.slice(0, i).join('/')).dirs.add(segments[i]!);
    }
    folder(segments.join('/')).files.set(name, object);
  }
  return folders;
}

/**
 * The units of one listing, grouped as the same tree on disk would be. `maxUnits` stops it
 * (with a problem, and the listing counted incomplete) before a huge bucket fills memory.
 */
export function groupListing(
  objects: RemoteObject[],
  location: S3Location,
  settings: S3Settings,
  maxUnits = DEFAULT_MAX_UNITS,
): BucketScan {
  const scan: BucketScan = { units: [], remote: new Map(), problems: [], complete: true };
  const folders = foldersOf(objects, location.prefix);
  const keyOf = (rel: string) => [location.prefix, rel].filter(Boolean).join('/');
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const { files, dirs } = folders.get(rel)!;
    // The disk scan's grouping reads folder names above the unit (REPS's runs/<c>/<r>/), so it
    // is given the whole key path, as a local path; its units are mapped back to addresses.
    const dirKey = keyOf(rel);
    const virtual = path.join(path.sep, location.bucket, ...dirKey.split('/').filter(Boolean));
    const grouped = groupFolder(virtual, [...files.keys()].sort());
    for (const unit of grouped.units) {
      const unitPath =
        unit.path === virtual
          ? formatS3Url({ bucket: location.bucket, prefix: dirKey })
          : objectUrl(
              location.bucket,
              keyOf([rel, path.basename(unit.path)].filter(Boolean).join('/')),
            );
      const unitObjects = unit.files.map((file) => files.get(path.basename(file))!);
      scan.units.push({
        path: unitPath,
        kind: unit.kind,
        files: unitObjects.map((o) => objectUrl(location.bucket, o.key)),
      });
      scan.remote.set(unitPath, {
        bucket: location.bucket,
        endpoint: settings.endpoint ?? null,
        objects: unitObjects,
      });
      if (scan.units.length >= maxUnits) {
        scan.problems.push({
          path: formatS3Url(location),
          message: `more than ${maxUnits.toLocaleString('en-US')} run files; the rest were not scanned`,
        });
        return { ...scan, complete: false };
      }
    }
    if (grouped.repsRun) continue;
    for (const dir of [...dirs].sort().reverse()) stack.push(rel ? `${rel}/${dir}` : dir);
  }
  return scan;
}

export async function scanBucket(
  location: S3Location,
  settings: S3Settings,
  signal: AbortSignal,
): Promise<BucketScan> {
  const root = formatS3Url(location);
  const empty: BucketScan = { units: [], remote: new Map(), problems: [], complete: true };
  let objects: RemoteObject[];
  try {
    objects = await listAll(location, settings, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const message = describeS3Error(error, {
      bucket: location.bucket,
      endpoint: settings.endpoint,
    });
    return { ...empty, problems: [{ path: root, message }], complete: false };
  }
  if (objects.length === 0) {
    return {
      ...empty,
      problems: [{ path: root, message: 'not found: no objects under this prefix' }],
    };
  }
  return groupListing(objects, location, settings);
}
