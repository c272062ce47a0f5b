import { ImportProblem } from '../ingest/types';

/**
 * The object store's failures as sentences a person can act on: the problems list shows
 * them per source, and a stack trace there says nothing about which key or setting is wrong.
 */

interface Where {
  bucket: string;
  /** The endpoint in use; none: AWS. */
  endpoint?: string | null;
}

const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is the service running and the port right?)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (a DNS failure; check the network)',
  ETIMEDOUT: 'the connection timed out',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
};

const CREDENTIALS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'AuthorizationHeaderMalformed',
]);

function field(error: unknown, key: string): unknown {
  return error && typeof error === 'object' && key in error
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/** A socket error's code, wherever the SDK's layers put it (the error or its cause). */
function networkCode(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = field(e, 'cause'), depth++) {
    const code = field(e, 'code');
    if (typeof code === 'string' && code in NETWORK) return code;
    const errors = field(e, 'errors');
    if (Array.isArray(errors)) {
      const inner = errors.map(networkCode).find((c) => c !== null);
      if (inner) return inner;
    }
  }
  return null;
}

const FILE_SYSTEM = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EACCES',
  'EPERM',
  'EMFILE',
  'ENFILE',
  'EIO',
  'ENAMETOOLONG',
  'ENOENT',
]);

/** An error of the local file a copy is written to, not of the store. */
export function isFileSystemError(error: unknown): boolean {
  const code = field(error, 'code');
  return typeof code === 'string' && FILE_SYSTEM.has(code) && 'syscall' in (error as object);
}

export function describeS3Error(error: unknown, where: Where): string {
  const store = where.endpoint ?? 'AWS S3';
  const name = String(field(error, 'name') ?? field(error, 'Code') ?? '');
  const status = (field(error, '$metadata') as { httpStatusCode?: number } | undefined)
    ?.httpStatusCode;
  const net = networkCode(error);
  if (net) return `could not reach ${store}: ${NETWORK[net]}`;
  if (name === 'CredentialsProviderError') {
    return 'no credentials for the object store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE naming a profile in ~/.aws/credentials or ~/.aws/config';
  }
  if (CREDENTIALS.has(name)) {
    return `${store} refused the credentials (${name}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the profile in use`;
  }
  if (name === 'NoSuchBucket') return `the bucket "${where.bucket}" does not exist on ${store}`;
  if (name === 'NoSuchKey' || (status === 404 && name !== 'NotFound')) {
    return 'the object is gone: it was deleted after the listing; it will be marked missing on the next pass';
  }
  if (name === 'PreconditionFailed' || status === 412) {
    return 'the object changed while it was being read; it will be indexed again on the next pass';
  }
  if (name === 'AccessDenied' || status === 403) {
    return `access denied: the credentials in use may not read the bucket "${where.bucket}" on ${store} (it needs s3:ListBucket and s3:GetObject)`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `${store} answered ${name || 'an error'}${status ? ` (HTTP ${status})` : ''}: ${message}`;
}

export function s3Problem(error: unknown, where: Where): ImportProblem {
  return new ImportProblem(describeS3Error(error, where));
}
