import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { isS3Url } from '../sources/s3-location';
import { fetchExport } from './s3-export';
import { sqlString } from './sql';

/** The tables the engine reads, each one file of the export (docs/parquet.md). */
const TABLES = ['experiments', 'conditions', 'runs', 'examples'] as const;

/** A DuckDB connection with a view per exported table, named as the table. */
export interface ParquetSource {
  connection: DuckDBConnection;
  close(): void;
}

export interface SourceOptions {
  /** An S3-compatible store (already checked to be an http(s) URL); none: AWS. */
  endpoint?: string | null;
  /** Told how an s3:// export is read, for --verbose. */
  note?(text: string): void;
}

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Opens an export: a local folder, or an `s3://` prefix. DuckDB reads the prefix itself when it
 * can load its httpfs extension (Pairwise never downloads extensions, so only one already
 * installed); otherwise the tables are copied with Pairwise's own S3 client into a temporary
 * folder, removed on close, and read from there.
 */
export async function openParquetSource(
  location: string,
  options: SourceOptions = {},
): Promise<ParquetSource> {
  const remote = REMOTE.test(location);
  if (remote && !isS3Url(location))
    throw new Error(
      `${location}: the DuckDB engine reads a local folder or an s3:// prefix, nothing else.`,
    );
  if (!remote) checkExport(location);
  // A sort past the memory limit spills here, not into the working directory (the default).
  const scratch = [fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-duckdb-'))];
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    memory_limit: '1GB',
    temp_directory: scratch[0]!,
  });
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
    for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    let fileOf = (table: string) => path.join(path.resolve(location), `${table}.parquet`);
    if (remote && (await loadHttpfs(connection, options.endpoint ?? null))) {
      options.note?.(`reading ${location} with DuckDB's httpfs extension`);
      const prefix = location.replace(/\/+$/, '');
      fileOf = (table) => `${prefix}/${table}.parquet`;
    } else if (remote) {
      const copies = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-s3-export-'));
      scratch.push(copies);
      options.note?.(
        `DuckDB has no httpfs extension here: copying ${location} to ${copies} with Pairwise's S3 client`,
      );
      const dir = await fetchExport(location, options.endpoint ?? null, TABLES, copies);
      fileOf = (table) => path.join(dir, `${table}.parquet`);
    }
    for (const table of TABLES)
      await connection.run(
        `CREATE VIEW ${table} AS SELECT * FROM read_parquet(${sqlString(fileOf(table))})`,
      );
  } catch (error) {
    close();
    throw error;
  }
  return { connection, close };
}

function checkExport(dir: string): void {
  const missing = TABLES.find((t) => !fs.existsSync(path.join(dir, `${t}.parquet`)));
  if (missing)
    throw new Error(
      `${dir} is not a Parquet export of Pairwise: ${missing}.parquet is missing (write one with pairwise export parquet DIR).`,
    );
}

/**
 * Loads httpfs if this DuckDB has it installed, and hands it what the S3 client would use: the
 * key variables of the environment (httpfs reads no AWS profile by itself) and, for an
 * S3-compatible store, its address, path-style as the client addresses one.
 */
async function loadHttpfs(connection: DuckDBConnection, endpoint: string | null): Promise<boolean> {
  try {
    await connection.run('LOAD httpfs');
  } catch {
    return false;
  }
  const env = process.env;
  const settings: Record<string, string | undefined> = {
    s3_access_key_id: env.AWS_ACCESS_KEY_ID,
    s3_secret_access_key: env.AWS_SECRET_ACCESS_KEY,
    s3_session_token: env.AWS_SESSION_TOKEN,
    s3_region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION,
  };
  if (endpoint) {
    const url = new URL(endpoint);
    Object.assign(settings, {
      s3_endpoint: url.host,
      s3_url_style: 'path',
      s3_use_ssl: url.protocol === 'https:' ? 'true' : 'false',
    });
  }
  for (const [name, value] of Object.entries(settings))
    if (value !== undefined) await connection.run(`SET ${name} = ${sqlString(value)}`);
  return true;
}
