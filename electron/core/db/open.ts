import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { setLibraryFile } from '../compare/pair-files';
import { dailyBackupDue, makeBackup } from './backup';
import { DatabaseUnavailableError, describeDbError } from './errors';
import {
  closedCleanly,
  DatabaseDamagedError,
  forgetClosed,
  ForeignDatabaseError,
  markClosed,
  quickCheck,
  refuseForeign,
} from './health';
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
  return described(file, () => {
    try {
      return openOrThrow(file, options);
    } catch (error) {
      if (!fromImageInstead(error, file, options)) throw error;
      const db = openOrThrow(file, options, undefined, rollbackImage(file));
      setLibraryFile(db, file);
      return db;
    }
  });
}

/**
 * A WAL file on a read-only mount cannot be read in place when its `-shm` is missing (SQLite
 * must create it), so a cleanly closed one (no `-wal`) is read from a copy in memory instead,
 * up to 1 GiB.
 */
function fromImageInstead(error: unknown, file: string, options: OpenOptions): boolean {
  return (
    options.readonly === true &&
    (error as { code?: string }).code === 'SQLITE_CANTOPEN' &&
    fs.existsSync(file) &&
    !fs.existsSync(`${file}-wal`) &&
    fs.statSync(file).size <= 1024 ** 3
  );
}

function described<T>(file: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    if (error instanceof DatabaseDamagedError || error instanceof ForeignDatabaseError) throw error;
    const message = describeDbError(error, file);
    throw message ? new DatabaseUnavailableError(message) : error;
  }
}

/**
 * The library as the service opens it, once per process: besides `openDatabase`, it refuses
 * another program's SQLite file, runs `quick_check` when the last close was not clean and
 * before the daily backup, refuses to write to a damaged file, and backs up before migrating.
 * Close it with `closeLibrary`, which records the clean close.
 */
export function openLibrary(file: string, options: OpenOptions = {}): Db {
  return described(file, () => {
    const existed = fs.existsSync(file) && fs.statSync(file).size > 0;
    const clean = existed && closedCleanly(file);
    forgetClosed(file);
    return openOrThrow(file, options, (db, version) => {
      refuseForeign(db, file, version);
      if (version === 0) return;
      let checked = false;
      const check = () => {
        if (checked) return;
        const problems = quickCheck(db);
        if (problems.length > 0) throw new DatabaseDamagedError(file, problems);
        checked = true;
      };
      if (!clean) check();
      if (version < latestVersion) {
        check();
        makeBackup(db, file, 'migration', `v${version}`);
      } else if (dailyBackupDue(file)) {
        // Checked first, so a damaged file never replaces a good backup.
        check();
        makeBackup(db, file, 'daily', '');
      }
    });
  });
}

export function closeLibrary(db: Db): void {
  const file = db.name;
  db.close();
  markClosed(file);
}

/** WAL header bytes (file format write/read version 2) set back to rollback (1). */
function rollbackImage(file: string): Buffer {
  const image = fs.readFileSync(file);
  image[18] = 1;
  image[19] = 1;
  return image;
}

function openOrThrow(
  file: string,
  options: OpenOptions,
  beforeMigrate?: (db: Db, version: number) => void,
  image?: Buffer,
): Db {
  if (!options.readonly) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const created = options.readonly ? [] : sidecarsMissing(file);
  const nativeBinding = options.nativeBinding ?? nativeBindingFromEnv();
  const db = new Database(image ?? file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  try {
    db.pragma('busy_timeout = 10000');
    db.pragma('foreign_keys = ON');
    if (!options.readonly) {
      // Before anything is written (setting WAL rewrites the header of a file not yet in WAL).
      beforeMigrate?.(db, db.pragma('user_version', { simple: true }) as number);
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
    // A failed open must not leave behind a -shm or -wal it created: made with the file's mode,
    // a read-only one would keep blocking once the file itself is writable again.
    for (const sidecar of created) fs.rmSync(sidecar, { force: true });
    throw error;
  }
}

function sidecarsMissing(file: string): string[] {
  return [`${file}-wal`, `${file}-shm`].filter((sidecar) => !fs.existsSync(sidecar));
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
