import Database from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../electron/cli/pairwise';
import { backupDir, makeBackup } from '../../electron/core/db/backup';
import { DatabaseDamagedError, ForeignDatabaseError } from '../../electron/core/db/health';
import { migrations } from '../../electron/core/db/migrations';
import { migrate, openLibrary } from '../../electron/core/db/open';
import { PairwiseService } from '../../electron/core/service';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';
import { cleanupsAfterEach } from '../fixtures/cleanups';

const cleanups = cleanupsAfterEach();
afterEach(() => {
  vi.restoreAllMocks();
});

function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

const sha = (file: string) =>
  crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function service(dbPath: string): PairwiseService {
  return new PairwiseService({
    dbPath,
    host: 'cli',
    version: 'test',
    watch: false,
    indexWorkers: 1,
  });
}

/** A library with two runs, closed cleanly twice (so it also has its daily backup). */
async function library(root: string): Promise<string> {
  const lib = path.join(root, 'lib');
  writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: examples(50) });
  writeMechlensRun(lib, {
    id: 'int',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(50, (i) => ({ refused: i % 2 === 0 })),
  });
  const db = path.join(root, 'p.db');
  const first = service(db);
  await first.index([lib]);
  await first.close();
  await service(db).close();
  return db;
}

function corruptPage(file: string, page: number): void {
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, crypto.randomBytes(4096), 0, 4096, (page - 1) * 4096);
  fs.closeSync(fd);
}

describe('a damaged library', () => {
  it('is refused for writing after bytes changed outside Pairwise, naming the backup', async () => {
    const db = await library(dir());
    corruptPage(db, 3);
    const before = sha(db);
    let error: unknown = null;
    try {
      service(db);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseDamagedError);
    expect((error as Error).message).toMatch(/damaged.*will not write.*daily-\d{4}-\d\d-\d\d\.db/s);
    expect(sha(db)).toBe(before);
    // And the CLI says so, and exits 1 without adding anything.
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((c) => (lines.push(String(c)), true));
    vi.spyOn(process.stdout, 'write').mockImplementation((c) => (lines.push(String(c)), true));
    expect(await main(['index', path.dirname(db), '--db', db])).toBe(1);
    expect(lines.join('')).toMatch(/pairwise: .*damaged/);
    expect(sha(db)).toBe(before);
  });

  it('says what to do when page 2 is damaged, instead of a raw "malformed"', async () => {
    const db = await library(dir());
    corruptPage(db, 2);
    expect(() => service(db)).toThrow(/damaged.*backup/s);
  });

  it('is checked after an unclean close', async () => {
    const root = dir();
    const db = await library(root);
    const s = service(db);
    // A crash: the connection goes away without the clean-close marker.
    s.db.close();
    corruptPage(db, 3);
    fs.utimesSync(db, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(() => service(db)).toThrow(DatabaseDamagedError);
  });
});

describe('another program’s SQLite file', () => {
  it('is refused and left exactly as it was', () => {
    const file = path.join(dir(), 'other.db');
    const other = new Database(file);
    other.exec(
      `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'a')`,
    );
    other.close();
    const before = sha(file);
    expect(() => openLibrary(file)).toThrow(ForeignDatabaseError);
    expect(() => openLibrary(file)).toThrow(
      /another program \(tables: users\).*will not change it/,
    );
    expect(sha(file)).toBe(before);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.existsSync(`${file}-shm`)).toBe(false);
  });
});

describe('backups', () => {
  it('copies the library before a migration', () => {
    const file = path.join(dir(), 'old.db');
    const old = new Database(file);
    migrate(old, file, migrations.slice(0, 7));
    old.close();
    const db = openLibrary(file);
    db.close();
    const copies = fs.readdirSync(backupDir(file));
    expect(copies).toContain('migration-v7.db');
    const copy = new Database(path.join(backupDir(file), 'migration-v7.db'), { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(7);
    copy.close();
  });

  it('keeps the three newest daily copies', () => {
    const file = path.join(dir(), 'p.db');
    const db = openLibrary(file);
    for (const day of ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']) {
      const copy = makeBackup(db, file, 'daily', '', new Date(`${day}T12:00:00Z`));
      fs.utimesSync(copy!, new Date(day), new Date(day));
    }
    db.close();
    expect(fs.readdirSync(backupDir(file)).sort()).toEqual([
      'daily-2026-01-02.db',
      'daily-2026-01-03.db',
      'daily-2026-01-04.db',
    ]);
  });
});

describe('read commands', () => {
  it('`runs` opens the library read-only and changes nothing beside it', async () => {
    const root = dir();
    const db = await library(root);
    fs.rmSync(backupDir(db), { recursive: true });
    const before = { db: sha(db), marker: fs.readFileSync(`${db}-closed`, 'utf8') };
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await main(['runs', '--db', db])).toBe(0);
    expect(sha(db)).toBe(before.db);
    expect(fs.readFileSync(`${db}-closed`, 'utf8')).toBe(before.marker);
    expect(fs.existsSync(backupDir(db))).toBe(false);
  });
});
