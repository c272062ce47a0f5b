import type { Migration } from './index';

/**
 * Sources read from an object store (s3://…). A source's `etag` is what the store said of its
 * objects when they were imported, so a re-index compares it with a new listing and reads no
 * object whose ETag and size are unchanged (a file's mtime has no meaning there). A folder's
 * `endpoint` is the S3-compatible service it lives on (null: AWS, or a local folder), so a
 * polled bucket is listed at the same place it was added from.
 */
export const m016ObjectSources: Migration = {
  version: 16,
  name: 'object-sources',
  sql: `
ALTER TABLE sources ADD COLUMN etag TEXT;
ALTER TABLE folders ADD COLUMN endpoint TEXT;
`,
};
