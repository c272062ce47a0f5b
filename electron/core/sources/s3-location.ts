/**
 * Where an object-store source lives: `s3://bucket/prefix`. The prefix is read as a folder
 * (every key under `prefix/`), so `s3://runs/exp1` never picks up `s3://runs/exp10/…`.
 */
export interface S3Location {
  bucket: string;
  /** Without leading or trailing slashes; '' for the whole bucket. */
  prefix: string;
}

export interface S3Settings {
  /** An S3-compatible service (MinIO, R2, Ceph…), addressed path-style; none: AWS. */
  endpoint?: string | null;
}

const SCHEME = 's3://';
/** AWS's rule, loosened to the older names some S3-compatible stores still accept. */
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;

export function isS3Url(text: string): boolean {
  return text.slice(0, SCHEME.length).toLowerCase() === SCHEME;
}

export function parseS3Url(text: string): S3Location {
  if (!isS3Url(text)) throw new Error(`${text} is not an s3:// address.`);
  const rest = text.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  if (!BUCKET.test(bucket)) {
    throw new Error(
      `"${bucket}" is not a bucket name: write the address as s3://BUCKET/PREFIX (letters, digits, dots and hyphens).`,
    );
  }
  const prefix = slash === -1 ? '' : rest.slice(slash + 1).replace(/^\/+|\/+$/g, '');
  return { bucket, prefix };
}

export function formatS3Url(location: S3Location): string {
  return `${SCHEME}${location.bucket}${location.prefix ? '/' + location.prefix : ''}`;
}

/** The address of one object. */
export function objectUrl(bucket: string, key: string): string {
  return `${SCHEME}${bucket}/${key}`;
}

/** An endpoint as the SDK wants it: an http(s) URL, checked here so the message says which. */
export function parseEndpoint(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`the endpoint ${text} is not a URL (for example http://127.0.0.1:9000).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`the endpoint ${text} must start with http:// or https://.`);
  }
  return url.toString().replace(/\/+$/, '');
}
