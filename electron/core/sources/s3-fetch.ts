import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SourceUnit } from '../ingest/types';
import { s3Client, s3Sdk } from './s3-client';
import { isFileSystemError, s3Problem } from './s3-errors';
import type { S3Location } from './s3-location';
import { parseS3Url } from './s3-location';
import type { RemoteUnit } from './s3-objects';

/**
 * Copies a unit's objects into a local folder, each streamed straight to its file (never
 * whole in memory), at the same key path under `<dir>/<bucket>/`, so the importers read it
 * exactly as they read a folder on disk: names, folder layout (REPS's runs/<c>/<r>/) and
 * random access into an Inspect .eval zip included.
 */

export interface FetchedUnit {
  /** The same unit over the local copies, stored under its s3:// address. */
  unit: SourceUnit;
  /** The ETags of the bytes fetched, in order (the store's word for this version). */
  etags: string[];
  /** SHA-256 over the addresses and bytes, as a disk unit's over its paths and bytes. */
  sha256: string;
}

export function localPath(dir: string, location: S3Location): string {
  return path.join(dir, location.bucket, ...location.prefix.split('/').filter(Boolean));
}

export async function fetchUnit(
  unit: SourceUnit,
  remote: RemoteUnit,
  dir: string,
  signal: AbortSignal,
  onBytes: (bytes: number) => void,
): Promise<FetchedUnit> {
  const client = await s3Client({ endpoint: remote.endpoint });
  const { GetObjectCommand } = await s3Sdk();
  const hash = createHash('sha256');
  const etags: string[] = [];
  const files: string[] = [];
  let received = 0;
  for (const [i, object] of remote.objects.entries()) {
    const url = unit.files[i]!;
    const file = localPath(dir, parseS3Url(url));
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    hash.update(`\0${url}\0`);
    let response;
    try {
      // If-Match: the object read is the one listed, or the unit waits for the next pass.
      response = await client.send(
        new GetObjectCommand({ Bucket: remote.bucket, Key: object.key, IfMatch: object.etag }),
        { abortSignal: signal },
      );
    } catch (error) {
      if (signal.aborted) throw error;
      throw s3Problem(error, remote);
    }
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        received += chunk.length;
        onBytes(received);
        done(null, chunk);
      },
    });
    try {
      await pipeline(response.Body as Readable, tap, fs.createWriteStream(file), { signal });
    } catch (error) {
      if (signal.aborted) throw error;
      // A full or read-only temporary disk is the copy's failure; the rest are the store's.
      throw isFileSystemError(error) ? error : s3Problem(error, remote);
    }
    // The importers read a file's mtime (a REPS run without an end is live if recently
    // written; a MechLens run's date when it records none): the object's, not the copy's.
    const modified = response.LastModified?.getTime() ?? object.lastModifiedMs;
    await fs.promises.utimes(file, modified / 1000, modified / 1000);
    etags.push(response.ETag ?? object.etag);
    files.push(file);
  }
  const local: SourceUnit = {
    path: localPath(dir, parseS3Url(unit.path)),
    kind: unit.kind,
    files,
    source: unit.path,
  };
  return { unit: local, etags, sha256: hash.digest('hex') };
}
