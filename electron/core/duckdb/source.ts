import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql';

/** The tables the engine reads, each one file of the export (docs/parquet.md). */
const TABLES = ['experiments', 'conditions', 'runs', 'examples'] as const;

/** A DuckDB connection with a view per exported table, named as the table. */
export interface ParquetSource {
  connection: DuckDBConnection;
  close(): void;
}

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Opens an export: a local folder, or an `s3://` prefix when this DuckDB can load its httpfs
 * extension. Pairwise ships DuckDB without httpfs and never downloads extensions, so a remote
 * location is refused with what to do rather than half-read.
 */
export async function openParquetSource(location: string): Promise<ParquetSource> {
  const remote = REMOTE.test(location);
  if (!remote) {
    const missing = TABLES.find((t) => !fs.existsSync(path.join(location, `${t}.parquet`)));
    if (missing)
      throw new Error(
        `${location} is not a Parquet export of Pairwise: ${missing}.parquet is missing (write one with pairwise export parquet DIR).`,
      );
  }
  // A sort past the memory limit spills here, not into the working directory (the default).
  const spill = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-duckdb-'));
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    memory_limit: '1GB',
    temp_directory: spill,
  });
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
    fs.rmSync(spill, { recursive: true, force: true });
  };
  try {
    if (remote) await loadHttpfs(connection, location);
    const base = remote ? location.replace(/\/+$/, '') : path.resolve(location);
    for (const table of TABLES) {
      const file = remote ? `${base}/${table}.parquet` : path.join(base, `${table}.parquet`);
      await connection.run(
        `CREATE VIEW ${table} AS SELECT * FROM read_parquet(${sqlString(file)})`,
      );
    }
  } catch (error) {
    close();
    throw error;
  }
  return { connection, close };
}

async function loadHttpfs(connection: DuckDBConnection, location: string): Promise<void> {
  if (!/^s3:\/\//i.test(location))
    throw new Error(
      `${location}: the DuckDB engine reads a local folder or an s3:// prefix, nothing else.`,
    );
  try {
    await connection.run('LOAD httpfs');
  } catch (error) {
    throw new Error(
      `${location}: reading s3:// needs DuckDB's httpfs extension, which this installation does not have (${firstLine(error)}). Copy the export to a local folder (for example with aws s3 sync) and pass that folder to --parquet.`,
      { cause: error },
    );
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
