import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseUnavailableError, describeDbError } from './errors';
import { latestVersion, migrations, type Migration } from './migrations';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {
  constructor(file: string, found: number, latest = latestVersion) {
    super(
      `The database ${file} was written by a newer Pairwise (schema ${found}; this version knows up to ${latest}). ` +
        'Update Pairwise, or open another database with --db.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

export interface OpenOptions {
  readonly?: boolean;
  /** Path to a better-sqlite3 binary built for another ABI (the Electron build). */
  nativeBinding?: string;
}

function nativeBindingFromEnv(): string | undefined {
  return process.env.PAIRWISE_SQLITE_BINDING || undefined;
}

/**
 * Opens the one database file. The writer migrates; readers (compare workers, the explorer's
 * pager) open read-only and never migrate, so they can run beside a writer in WAL mode.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  try {
    return openOrThrow(file, options);
  } catch (error) {
    const message = describeDbError(error, file);
    throw message ? new DatabaseUnavailableError(message) : error;
  }
}

function openOrThrow(file: string, options: OpenOptions): Db {
  if (!options.readonly) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const nativeBinding = options.nativeBinding ?? nativeBindingFromEnv();
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  try {
    db.pragma('busy_timeout = 10000');
    db.pragma('foreign_keys = ON');
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db, file);
    } else {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > latestVersion) throw new DatabaseTooNewError(file, version);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function migrate(db: Db, file = db.name, list: Migration[] = migrations): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = list.length;
  if (current > latest) throw new DatabaseTooNewError(file, current, latest);
  for (const migration of list) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
