import type { Db } from '../db/open';
import { BadRequestError } from '../errors';
import { addFolder } from '../folders';
import { formatS3Url, parseEndpoint, parseS3Url, type S3Settings } from './s3-location';

/**
 * s3:// addresses added to the library as folders: the folder row keeps the endpoint, so the
 * bucket is polled, and listed again after a restart, at the store it was added from.
 */

export interface AddedBucket {
  path: string;
  settings: S3Settings;
}

function endpointOf(db: Db, address: string): string | null {
  const row = db.prepare(`SELECT endpoint FROM folders WHERE path = ?`).get(address) as
    { endpoint: string | null } | undefined;
  return row?.endpoint ?? null;
}

/**
 * Adds (or re-adds) an s3:// address. Re-adding without an endpoint keeps the one it had, so
 * "index again" from the library list needs none.
 */
export function addBucket(
  db: Db,
  address: string,
  watch: boolean,
  endpoint: string | undefined,
): AddedBucket {
  let path: string;
  let settings: S3Settings;
  try {
    path = formatS3Url(parseS3Url(address));
    settings = {
      endpoint: endpoint === undefined ? endpointOf(db, path) : parseEndpoint(endpoint),
    };
  } catch (error) {
    throw new BadRequestError((error as Error).message);
  }
  db.transaction(() => {
    addFolder(db, path, watch);
    db.prepare(`UPDATE folders SET endpoint = ? WHERE path = ?`).run(
      settings.endpoint ?? null,
      path,
    );
  })();
  return { path, settings };
}

/** The watched s3:// addresses, to poll again when the library opens. */
export function watchedBuckets(db: Db): AddedBucket[] {
  return (
    db
      .prepare(`SELECT path, endpoint FROM folders WHERE watched = 1 AND path LIKE 's3://%'`)
      .all() as { path: string; endpoint: string | null }[]
  ).map((row) => ({ path: row.path, settings: { endpoint: row.endpoint } }));
}
