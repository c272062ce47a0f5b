import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { closeLibrary, openLibrary } from '../../electron/core/db/open';
import { startSyncServer } from '../fixtures/sync-server';
import type { CaseResult } from './report';

/**
 * SIGKILL in the middle of indexing, comparing, saving findings and syncing, each followed by
 * the checks a user would care about: the file is sound, Pairwise opens it again, no confirmed
 * save is lost, and a full pass afterwards ends where an uninterrupted one would.
 */

const root = path.resolve(__dirname, '../..');
const victim = path.join(__dirname, 'victim.ts');

interface Killed {
  confirmed: string[];
  finished: boolean;
}

/** Starts the victim, kills it `delayMs` after it is ready (or lets it finish). */
function killAfter(args: string[], delayMs: number, env: NodeJS.ProcessEnv = {}): Promise<Killed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', victim, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const confirmed: string[] = [];
    let finished = false;
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), delayMs);
        else if (line === 'done') finished = true;
        else if (line.startsWith('saved ')) confirmed.push(line.slice(6));
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0)
        reject(new Error(`victim ${args[0]} exited ${code}: ${stderr.slice(0, 500)}`));
      else resolve({ confirmed, finished });
    });
  });
}

function integrityOk(dbPath: string): boolean {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true }) === 'ok';
  } finally {
    db.close();
  }
}

/** Pairwise opens the file again (quick_check after the unclean close) and closes it cleanly. */
function reopens(dbPath: string): boolean {
  try {
    closeLibrary(openLibrary(dbPath));
    return true;
  } catch {
    return false;
  }
}

function revisionsPresent(dbPath: string, confirmed: string[]): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    const has = db.prepare('SELECT 1 FROM finding_revisions WHERE finding_id = ? AND revision = ?');
    return confirmed.filter((c) => {
      const [id, revision] = c.split(' ');
      return has.get(id, Number(revision)) !== undefined;
    }).length;
  } finally {
    db.close();
  }
}

function count(dbPath: string, sql: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).pluck().get() as number;
  } finally {
    db.close();
  }
}

export interface KillPlan {
  dbPath: string;
  lib: string;
  expectedRuns: number;
  kills: number;
  random: () => number;
}

export async function killCases(plan: KillPlan): Promise<CaseResult[]> {
  const { dbPath, lib, random } = plan;
  const perAction = Math.ceil(plan.kills / 4);
  const results: CaseResult[] = [];
  const check = (name: string, runs: number, failures: string[], note: string) =>
    results.push({ name, runs, failures: failures.length, notes: failures[0] ?? note });

  // Index: killed at a random point, then a full pass must end with every run.
  {
    const failures: string[] = [];
    for (let i = 0; i < perAction; i++) {
      await killAfter(['index', dbPath, lib], Math.floor(random() * 3000));
      if (!integrityOk(dbPath)) failures.push(`kill ${i}: integrity_check failed`);
      if (!reopens(dbPath)) failures.push(`kill ${i}: Pairwise could not reopen the library`);
      // Every fourth kill leaves the file as is for the next one, so kills land on kills.
      if (i % 4 === 3) {
        await killAfter(['index', dbPath, lib], 8_000);
        const runs = count(dbPath, `SELECT count(*) FROM runs WHERE state != 'missing'`);
        if (runs !== plan.expectedRuns)
          failures.push(`after kill ${i}: ${runs} runs, expected ${plan.expectedRuns}`);
      }
    }
    check(
      'SIGKILL during index',
      perAction,
      failures,
      `integrity ok and reopened after every kill; every fourth kill followed by 8 s of passes: all ${plan.expectedRuns} runs there`,
    );
  }

  // Compare: a killed comparison leaves nothing half-saved.
  {
    const failures: string[] = [];
    for (let i = 0; i < perAction; i++) {
      await killAfter(['compare', dbPath, lib], Math.floor(random() * 3000));
      if (!integrityOk(dbPath)) failures.push(`kill ${i}: integrity_check failed`);
      if (!reopens(dbPath)) failures.push(`kill ${i}: could not reopen`);
      const orphans = count(
        dbPath,
        'SELECT count(*) FROM pair_arrays WHERE report_id NOT IN (SELECT id FROM reports)',
      );
      if (orphans > 0) failures.push(`kill ${i}: ${orphans} pair rows without a report`);
    }
    check('SIGKILL during compare', perAction, failures, 'integrity ok, no orphan pair rows');
  }

  // Finding saves: every save confirmed before the kill is still there.
  {
    const failures: string[] = [];
    let confirmed = 0;
    for (let i = 0; i < perAction; i++) {
      const killed = await killAfter(['save', dbPath, lib], 200 + Math.floor(random() * 1500));
      confirmed += killed.confirmed.length;
      if (!integrityOk(dbPath)) failures.push(`kill ${i}: integrity_check failed`);
      const present = revisionsPresent(dbPath, killed.confirmed);
      if (present !== killed.confirmed.length)
        failures.push(`kill ${i}: ${killed.confirmed.length - present} confirmed saves lost`);
    }
    check(
      'SIGKILL during finding saves',
      perAction,
      failures,
      `0 of ${confirmed} confirmed saves lost`,
    );
  }

  // Sync: killed mid-pass, then one pass to the end; the server has each item once.
  {
    const failures: string[] = [];
    const key = 'ml_chaos_key';
    const server = await startSyncServer({ apiKey: key });
    const env = { MECHLENS_API_URL: server.url, MECHLENS_API_KEY: key };
    try {
      for (let i = 0; i < perAction; i++) {
        await killAfter(['sync', dbPath, lib], Math.floor(random() * 400), env);
        if (!integrityOk(dbPath)) failures.push(`kill ${i}: integrity_check failed`);
      }
      const last = await killAfter(['sync', dbPath, lib], 600_000, env);
      if (!last.finished) failures.push('the final sync pass did not finish');
      const queued = count(dbPath, `SELECT count(*) FROM outbox WHERE state != 'synced'`);
      const items = count(dbPath, 'SELECT count(*) FROM outbox');
      if (queued > 0) failures.push(`${queued} outbox items not synced after a full pass`);
      if (server.stored.size !== items)
        failures.push(`server stored ${server.stored.size} items for ${items} outbox rows`);
      check(
        'SIGKILL during sync',
        perAction,
        failures,
        `${items} items: 0 lost, 0 duplicated (${server.received.length} requests)`,
      );
    } finally {
      await server.close();
    }
  }
  return results;
}
