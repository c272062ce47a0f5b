import type { SourceUnit } from '../ingest/types';
import { fetchUnit, localPath } from '../sources/s3-fetch';
import { describeS3Error } from '../sources/s3-errors';
import { objectUrl, parseS3Url } from '../sources/s3-location';
import type { RemoteObject } from '../sources/s3-objects';
import { listAll } from '../sources/s3-scan';

/**
 * Copies the tables the engine reads from an export under an `s3://` prefix into `dir`, with
 * the project's own S3 client: one listing, then each object streamed to its file (never whole
 * in memory). Returns the local folder that holds them, which the caller removes.
 */
export async function fetchExport(
  url: string,
  endpoint: string | null,
  tables: readonly string[],
  dir: string,
): Promise<string> {
  const location = parseS3Url(url);
  const where = { bucket: location.bucket, endpoint };
  const signal = new AbortController().signal;
  let listed: RemoteObject[];
  try {
    listed = await listAll(location, { endpoint }, signal);
  } catch (error) {
    throw new Error(`${url}: ${describeS3Error(error, where)}`, { cause: error });
  }
  const keyOf = (table: string) => [location.prefix, `${table}.parquet`].filter(Boolean).join('/');
  const objects = tables.map((table) => listed.find((o) => o.key === keyOf(table)));
  const missing = tables.find((_, i) => !objects[i]);
  if (missing)
    throw new Error(
      `${url} is not a Parquet export of Pairwise: ${missing}.parquet is missing (write one with pairwise export parquet DIR, then copy DIR there).`,
    );
  const found = objects as RemoteObject[];
  const unit: SourceUnit = {
    path: url,
    kind: 'file',
    files: found.map((o) => objectUrl(location.bucket, o.key)),
  };
  try {
    await fetchUnit(
      unit,
      { bucket: location.bucket, endpoint, objects: found },
      dir,
      signal,
      () => {},
    );
  } catch (error) {
    throw new Error(`${url}: ${(error as Error).message}`, { cause: error });
  }
  return localPath(dir, location);
}
