/** What a listing says of one object, and what an index worker needs to fetch a unit's. */
export interface RemoteObject {
  key: string;
  size: number;
  /** As the store gives it, quotes included. */
  etag: string;
  lastModifiedMs: number;
}

/** A unit read from an object store: its objects in the order of the unit's `files`. */
export interface RemoteUnit {
  bucket: string;
  endpoint: string | null;
  objects: RemoteObject[];
}

/** The ETags of a unit's objects, in order: one string to compare with the next listing. */
export function unitEtag(objects: { etag: string }[]): string {
  return objects.map((o) => o.etag).join(',');
}

export function unitSize(objects: { size: number }[]): number {
  return objects.reduce((sum, o) => sum + o.size, 0);
}
