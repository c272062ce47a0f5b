import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../fixtures/cli';
import type { CaseResult } from './report';

/**
 * The disk and the file under attack: a full disk in the middle of indexing, damaged pages,
 * another program's SQLite file, and a library on a read-only mount. Mounting needs root; where
 * it is not permitted the case is skipped and says so.
 */

interface IndexSummary {
  sources: { scanned: number; imported: number; unchanged: number; failed: number };
  runs: number;
  problems: { path: string; message: string }[];
}

function indexJson(
  lib: string,
  db: string,
): { status: number | null; summary: IndexSummary | null; stderr: string } {
  const result = runCli(['index', lib, '--db', db, '--json']);
  let summary: IndexSummary | null;
  try {
    summary = JSON.parse(result.stdout) as IndexSummary;
  } catch {
    summary = null;
  }
  return { status: result.status, summary, stderr: result.stderr };
}

function mount(args: string[]): string | null {
  const result = spawnSync('mount', args, { encoding: 'utf8' });
  return result.status === 0
    ? null
    : (result.stderr || result.error?.message || 'mount failed').trim();
}

function umount(target: string): void {
  spawnSync('umount', [target]);
}

function sha(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function countRuns(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM runs WHERE state != 'missing'`).pluck().get() as number;
  } finally {
    db.close();
  }
}

function integrityOk(file: string): boolean {
  try {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma('integrity_check', { simple: true }) === 'ok';
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Item 1 of the issue: after a full disk, the next pass reads the failed files again. */
export function diskFullCase(work: string, lib: string, expectedRuns: number): CaseResult {
  const name = 'Disk full (8 MB tmpfs) during index, then space freed';
  const mnt = path.join(work, 'tmpfs');
  fs.mkdirSync(mnt, { recursive: true });
  const refused = mount(['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt]);
  if (refused)
    return {
      name,
      runs: 0,
      failures: 0,
      notes: '',
      skipped: `mount not permitted here (${refused})`,
    };
  try {
    const db = path.join(mnt, 'p.db');
    const empty = path.join(work, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    runCli(['index', empty, '--db', db]);
    const free = fs.statfsSync(mnt).bavail * fs.statfsSync(mnt).bsize;
    const filler = path.join(mnt, 'filler');
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free - 2 * 1024 * 1024)));
    const failures: string[] = [];
    const first = indexJson(lib, db);
    const failed = first.summary?.sources.failed ?? 0;
    // Either some files fail with a full disk, or the whole pass stops saying so.
    const saidFull =
      /disk .*is full/i.test(first.stderr) ||
      (first.summary?.problems.some((p) => /disk .*is full/i.test(p.message)) ?? false);
    if (failed === 0 && first.status === 0)
      failures.push('the disk never filled: the case proved nothing');
    else if (!saidFull)
      failures.push(`nothing said the disk was full: ${first.stderr.slice(0, 200)}`);
    fs.rmSync(filler);
    const second = indexJson(lib, db);
    const s = second.summary;
    const stored = integrityOk(db) ? countRuns(db) : -1;
    if (!s) failures.push(`second pass printed no summary: ${second.stderr.slice(0, 200)}`);
    else if (s.sources.failed !== 0) failures.push(`second pass: ${s.sources.failed} still failed`);
    if (stored < 0) failures.push('integrity_check failed');
    else if (stored !== expectedRuns)
      failures.push(`after freeing space: ${stored} runs stored, expected ${expectedRuns}`);
    return {
      name,
      runs: 2,
      failures: failures.length,
      notes:
        failures[0] ??
        `pass 1: ${first.summary ? `${first.summary.sources.imported} imported, ${failed} failed` : 'stopped'} ("disk … is full"); pass 2 after freeing space: ${s?.sources.imported} imported, ${s?.sources.unchanged} unchanged, 0 failed; ${stored}/${expectedRuns} runs stored`,
    };
  } finally {
    umount(mnt);
  }
}

type Damage = (file: string, random: () => number) => void;

function overwrite(file: string, offset: number, bytes: Buffer): void {
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, bytes, 0, bytes.length, offset);
  fs.closeSync(fd);
}

const PAGE = 4096;
const damages: Record<string, Damage> = {
  'page 2 overwritten with random bytes': (file) => overwrite(file, PAGE, crypto.randomBytes(PAGE)),
  'a middle page overwritten': (file) => {
    const pages = Math.floor(fs.statSync(file).size / PAGE);
    overwrite(file, Math.floor(pages / 2) * PAGE, crypto.randomBytes(PAGE));
  },
  '64 random bytes at a random offset': (file, random) => {
    const size = fs.statSync(file).size;
    overwrite(file, 100 + Math.floor(random() * (size - 200)), crypto.randomBytes(64));
  },
  'the header zeroed': (file) => overwrite(file, 0, Buffer.alloc(100)),
  'the file cut in half': (file) =>
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2 / PAGE) * PAGE),
};

const ADVICE = /damaged|not a readable Pairwise database/;

/**
 * Damage a clean library, then `index` into it. A sound outcome: refused with advice (exit 1,
 * no stack trace, the file untouched), or accepted because the damage hit nothing in use
 * (exit 0 and integrity_check ok afterwards).
 */
export function corruptCases(
  work: string,
  lib: string,
  repeats: number,
  random: () => number,
): CaseResult[] {
  const base = path.join(work, 'clean.db');
  runCli(['index', lib, '--db', base]);
  const results: CaseResult[] = [];
  for (const [label, damage] of Object.entries(damages)) {
    const failures: string[] = [];
    let refused = 0;
    const times = label.includes('random offset') ? repeats : Math.max(1, Math.floor(repeats / 4));
    for (let i = 0; i < times; i++) {
      const db = path.join(work, `damaged-${i}.db`);
      fs.copyFileSync(base, db);
      fs.copyFileSync(`${base}-closed`, `${db}-closed`);
      damage(db, random);
      const before = sha(db);
      const result = runCli(['index', lib, '--db', db]);
      const said = `${result.stdout}${result.stderr}`;
      if (result.status === 0) {
        if (!integrityOk(db))
          failures.push(`${label}: index exit 0 on a file that fails integrity_check`);
      } else {
        refused++;
        if (!ADVICE.test(said))
          failures.push(`${label}: refused without advice: ${said.slice(0, 200)}`);
        if (/\n\s+at /.test(said)) failures.push(`${label}: stack trace printed`);
        if (sha(db) !== before) failures.push(`${label}: the refused file was changed`);
      }
      for (const f of [db, `${db}-wal`, `${db}-shm`, `${db}-closed`]) fs.rmSync(f, { force: true });
      fs.rmSync(`${db}.backups`, { recursive: true, force: true });
    }
    results.push({
      name: `Damaged library: ${label}`,
      runs: times,
      failures: failures.length,
      notes:
        failures[0] ??
        `${refused} refused with advice and left untouched, ${times - refused} harmless (integrity ok)`,
    });
  }
  {
    const other = path.join(work, 'other.db');
    const db = new Database(other);
    db.exec(
      `CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x')`,
    );
    db.close();
    const before = sha(other);
    const result = runCli(['index', lib, '--db', other]);
    const failures: string[] = [];
    if (result.status === 0) failures.push('indexed into another program’s database');
    if (!/another program/.test(result.stderr))
      failures.push(`message: ${result.stderr.slice(0, 200)}`);
    if (sha(other) !== before) failures.push('the foreign file was changed');
    results.push({
      name: 'Another program’s SQLite file as --db',
      runs: 1,
      failures: failures.length,
      notes: failures[0] ?? 'refused, file byte for byte unchanged',
    });
  }
  return results;
}

/** A library on a read-only mount: `runs` works, `index` says why it cannot, and nothing sticks. */
export function readOnlyCase(work: string, lib: string): CaseResult {
  const name = 'Library on a read-only mount';
  const source = path.join(work, 'rw');
  const ro = path.join(work, 'ro');
  fs.mkdirSync(source, { recursive: true });
  fs.mkdirSync(ro, { recursive: true });
  runCli(['index', lib, '--db', path.join(source, 'p.db')]);
  const refused = mount(['--bind', source, ro]) ?? mount(['-o', 'remount,bind,ro', ro]);
  if (refused) {
    umount(ro);
    return {
      name,
      runs: 0,
      failures: 0,
      notes: '',
      skipped: `mount not permitted here (${refused})`,
    };
  }
  const failures: string[] = [];
  try {
    const db = path.join(ro, 'p.db');
    const runs = runCli(['runs', '--db', db]);
    if (runs.status !== 0) failures.push(`runs failed: ${runs.stderr.slice(0, 200)}`);
    const index = runCli(['index', lib, '--db', db]);
    if (index.status === 0) failures.push('index on a read-only library exited 0');
    if (!/read-only|cannot write|cannot open/i.test(index.stderr))
      failures.push(`index message: ${index.stderr.slice(0, 200)}`);
  } finally {
    umount(ro);
  }
  const again = runCli(['index', lib, '--db', path.join(source, 'p.db')]);
  if (again.status !== 0)
    failures.push(`after the mount was gone, index failed: ${again.stderr.slice(0, 200)}`);
  return {
    name,
    runs: 3,
    failures: failures.length,
    notes:
      failures[0] ??
      '`runs` lists the runs; `index` refuses with "read-only"; writable again at once afterwards',
  };
}
