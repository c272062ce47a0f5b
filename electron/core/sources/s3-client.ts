import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from './s3-location';

type Sdk = typeof import('@aws-sdk/client-s3');
let sdk: Promise<Sdk> | null = null;

/**
 * The SDK, loaded on first use: it takes some 150 ms to load, which every index worker and
 * CLI command would otherwise pay whether or not it reads a bucket.
 */
export function s3Sdk(): Promise<Sdk> {
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
}

/**
 * The SDK's client, with its default credential chain (environment variables, the shared
 * config and credentials files, AWS_PROFILE, SSO, container and instance roles): Pairwise never
 * asks for or stores a key. One client per endpoint per thread, kept for the process.
 */
const clients = new Map<string, Promise<S3Client>>();

/** A bucket's own region is found by redirect; this only seeds the first request. */
const FALLBACK_REGION = 'us-east-1';

async function create(settings: S3Settings): Promise<S3Client> {
  // The SDK warns on every process that Node 20 loses its support in 2027: a notice for the
  // SDK's maintainers, not for a person indexing runs, and it would land in the CLI's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { S3Client } = await s3Sdk();
  const endpoint = settings.endpoint ?? undefined;
  // S3-compatible stores (MinIO, Ceph, s3rver) serve buckets under the path, not as host names.
  const base = { endpoint, forcePathStyle: endpoint !== undefined, followRegionRedirects: true };
  const client = new S3Client(base);
  try {
    await client.config.region();
    return client;
  } catch {
    // No region in the environment or the profile: any region finds the bucket by redirect.
    client.destroy();
    return new S3Client({ ...base, region: FALLBACK_REGION });
  }
}

export function s3Client(settings: S3Settings): Promise<S3Client> {
  const key = settings.endpoint ?? '';
  let client = clients.get(key);
  if (!client) {
    client = create(settings);
    clients.set(key, client);
  }
  return client;
}
