import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetCopies, locationOf, registerCopies } from '../../electron/core/ingest/location';
import { describeS3Error, isFileSystemError } from '../../electron/core/sources/s3-errors';
import { formatS3Url, parseEndpoint, parseS3Url } from '../../electron/core/sources/s3-location';
import { groupListing } from '../../electron/core/sources/s3-scan';

const object = (key: string) => ({ key, size: 10, etag: `"${key.length}"`, lastModifiedMs: 0 });

describe('s3:// addresses', () => {
  it('reads a bucket and a prefix, without the slashes around it', () => {
    expect(parseS3Url('s3://team-runs/lab/exp/')).toEqual({
      bucket: 'team-runs',
      prefix: 'lab/exp',
    });
    expect(parseS3Url('S3://team-runs')).toEqual({ bucket: 'team-runs', prefix: '' });
    expect(formatS3Url(parseS3Url('s3://team-runs//lab/'))).toBe('s3://team-runs/lab');
    expect(() => parseS3Url('s3://')).toThrow(/is not a bucket name/);
    expect(() => parseS3Url('s3://a b/x')).toThrow(/is not a bucket name/);
  });

  it('takes an http(s) endpoint only', () => {
    expect(parseEndpoint('http://127.0.0.1:9000/')).toBe('http://127.0.0.1:9000');
    expect(() => parseEndpoint('minio:9000')).toThrow(/must start with http/);
    expect(() => parseEndpoint('not a url')).toThrow(/is not a URL/);
  });
});

describe('a listing grouped as a folder on disk', () => {
  const location = { bucket: 'bkt', prefix: 'exp' };
  const scan = groupListing(
    [
      'exp/.mechlens/runs/a.json',
      'exp/node_modules/x.json',
      'exp/.git/x.json',
      'exp/a/../escape.json',
      'exp//empty-segment.json',
      'exp/back\\slash/x.json',
      'exp/lm/org__m/results_2026-09-18T09-12-44.118273.json',
      'exp/lm/org__m/samples_arith_2026-09-18T09-12-44.118273.jsonl',
      'exp/proj/runs/cond/run1/run.json',
      'exp/proj/runs/cond/run1/events.jsonl',
      'exp/proj/runs/cond/run1/workspace/run.json',
      'exp/g/pairwise.json',
      'exp/g/a.jsonl',
      'exp/notes.txt',
    ].map(object),
    location,
    { endpoint: 'http://127.0.0.1:9000' },
  );

  it('gives the units a scan of the same tree would, named by their addresses', () => {
    expect(scan.units).toEqual([
      {
        path: 's3://bkt/exp/.mechlens/runs/a.json',
        kind: 'file',
        files: ['s3://bkt/exp/.mechlens/runs/a.json'],
      },
      {
        path: 's3://bkt/exp/g/a.jsonl',
        kind: 'file',
        files: ['s3://bkt/exp/g/a.jsonl', 's3://bkt/exp/g/pairwise.json'],
      },
      {
        path: 's3://bkt/exp/lm/org__m/results_2026-09-18T09-12-44.118273.json',
        kind: 'lm-eval',
        files: [
          's3://bkt/exp/lm/org__m/results_2026-09-18T09-12-44.118273.json',
          's3://bkt/exp/lm/org__m/samples_arith_2026-09-18T09-12-44.118273.jsonl',
        ],
      },
      {
        path: 's3://bkt/exp/proj/runs/cond/run1',
        kind: 'reps-run',
        files: [
          's3://bkt/exp/proj/runs/cond/run1/run.json',
          's3://bkt/exp/proj/runs/cond/run1/events.jsonl',
        ],
      },
    ]);
    expect(scan.complete).toBe(true);
  });

  it('passes over keys that could not be a path inside a folder (.., empty segments, backslashes)', () => {
    const keys = [...scan.remote.values()].flatMap((unit) => unit.objects.map((o) => o.key));
    expect(keys.some((key) => /\.\.|\/\/|\\|node_modules|\.git\//.test(key))).toBe(false);
  });

  it("keeps each unit's objects in the order of its files, with the endpoint to fetch them from", () => {
    const run = scan.remote.get('s3://bkt/exp/proj/runs/cond/run1')!;
    expect(run.endpoint).toBe('http://127.0.0.1:9000');
    expect(run.objects.map((o) => o.key)).toEqual([
      'exp/proj/runs/cond/run1/run.json',
      'exp/proj/runs/cond/run1/events.jsonl',
    ]);
  });

  it('stops at the unit limit and counts the listing incomplete', () => {
    const capped = groupListing(
      ['exp/a.json', 'exp/b.json', 'exp/c.json'].map(object),
      location,
      {},
      2,
    );
    expect(capped.units).toHaveLength(2);
    expect(capped.complete).toBe(false);
    expect(capped.problems[0]!.message).toMatch(/more than 2 run files/);
  });
});

describe("the store's failures in words", () => {
  const where = { bucket: 'bkt', endpoint: 'http://minio:9000' };
  const sdkError = (name: string, status: number) =>
    Object.assign(new Error('raw'), { name, $metadata: { httpStatusCode: status } });

  it('names the bucket, the credentials or the connection', () => {
    expect(describeS3Error(sdkError('NoSuchBucket', 404), where)).toBe(
      'the bucket "bkt" does not exist on http://minio:9000',
    );
    expect(describeS3Error(sdkError('AccessDenied', 403), where)).toMatch(/^access denied/);
    expect(describeS3Error(sdkError('SignatureDoesNotMatch', 403), where)).toMatch(
      /refused the credentials \(SignatureDoesNotMatch\)/,
    );
    expect(describeS3Error(sdkError('CredentialsProviderError', 0), { bucket: 'bkt' })).toMatch(
      /^no credentials for the object store: set AWS_ACCESS_KEY_ID/,
    );
    const refused = new Error('socket', {
      cause: Object.assign(new AggregateError([]), {
        errors: [Object.assign(new Error('x'), { code: 'ECONNREFUSED' })],
      }),
    });
    expect(describeS3Error(refused, { bucket: 'bkt' })).toMatch(
      /^could not reach AWS S3: the connection was refused/,
    );
    expect(describeS3Error(sdkError('SlowDown', 503), where)).toBe(
      'http://minio:9000 answered SlowDown (HTTP 503): raw',
    );
  });

  it('tells a full temporary disk from a dropped connection', () => {
    const full = Object.assign(new Error('no space'), { code: 'ENOSPC', syscall: 'write' });
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET', syscall: 'read' });
    expect(isFileSystemError(full)).toBe(true);
    const long = Object.assign(new Error('long'), { code: 'ENAMETOOLONG', syscall: 'open' });
    expect(isFileSystemError(long)).toBe(true);
    expect(isFileSystemError(reset)).toBe(false);
    expect(describeS3Error(reset, { bucket: 'bkt' })).toBe(
      'could not reach AWS S3: the connection was reset',
    );
  });
});

describe('where a local copy of an object lives', () => {
  it("is the object's address while its copies are registered, the file's path otherwise", () => {
    const dir = path.join(os.tmpdir(), 'pairwise-s3-copies');
    const file = path.join(dir, 'bkt', 'exp', 'a.jsonl');
    registerCopies(dir, 's3:/');
    expect(locationOf(file)).toBe('s3://bkt/exp/a.jsonl');
    forgetCopies(dir);
    expect(locationOf(file)).toBe(file);
  });
});
