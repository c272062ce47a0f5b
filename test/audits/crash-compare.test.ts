import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../fixtures/cli';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';
import { seededIntegers } from '../fixtures/random';

/**
 * Issue 7: SIGKILL while a comparison runs (computing in its worker, or writing the report).
 * Indexing and finding saves have their own SIGKILL tests (crash-index.test.ts,
 * findings-crash.test.ts).
 */

let cleanup = () => undefined as void;
afterEach(() => cleanup());

const EXAMPLES = 8_000;

function experiment(dir: string): string {
  const lib = path.join(dir, 'lib');
  writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: examples(EXAMPLES) });
  ['steer', 'control', 'other'].forEach((name, i) =>
    writeMechlensRun(lib, {
      id: `cand-${i}`,
      name,
      experiment: { id: 'exp-test', role: name === 'control' ? 'control' : 'intervention' },
      examples: examples(EXAMPLES, (k) => ({
        refused: (k + i) % 3 === 0,
        score: (k * (i + 2)) % 5,
      })),
    }),
  );
  return lib;
}

interface State {
  integrity: string;
  reports: number;
  /** Rows whose report is gone: a half-written or half-deleted report. */
  orphans: number;
  /** Reports with fewer pair rows than their comparisons need. */
  incomplete: number;
  /** Pair rows whose file is not beside the library. */
  missingFiles: number;
}

/** The pair files beside the library and the ones its rows name. */
function pairFiles(db: string): { present: string[]; named: string[] } {
  const conn = new Database(db, { readonly: true });
  try {
    const named = conn.prepare(`SELECT file FROM pair_arrays ORDER BY file`).pluck().all();
    const dir = `${db}.pairs`;
    const present = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    return { present, named: named as string[] };
  } finally {
    conn.close();
  }
}

function inspect(db: string): State {
  const conn = new Database(db, { readonly: true });
  try {
    const n = (sql: string) => (conn.prepare(sql).get() as { n: number }).n;
    const reports = conn.prepare(`SELECT id, report FROM reports`).all() as {
      id: number;
      report: string;
    }[];
    const rowsOf = conn.prepare(
      `SELECT COALESCE(SUM(rows), 0) AS n FROM pair_arrays WHERE report_id = ? AND pair = ?`,
    );
    let incomplete = 0;
    for (const { id, report } of reports) {
      const parsed = JSON.parse(report) as { comparisons: unknown[] };
      parsed.comparisons.forEach((_, pair) => {
        if ((rowsOf.get(id, pair) as { n: number }).n !== EXAMPLES) incomplete++;
      });
    }
    return {
      integrity: conn.pragma('integrity_check', { simple: true }) as string,
      reports: reports.length,
      orphans:
        n(`SELECT COUNT(*) AS n FROM pair_arrays WHERE report_id NOT IN (SELECT id FROM reports)`) +
        n(
          `SELECT COUNT(*) AS n FROM report_runs WHERE report_key NOT IN (SELECT key FROM reports)`,
        ),
      incomplete,
      missingFiles: 0,
    };
  } finally {
    conn.close();
  }
}

function inspectWithFiles(db: string): State {
  const { present, named } = pairFiles(db);
  return { ...inspect(db), missingFiles: named.filter((f) => !present.includes(f)).length };
}

describe('SIGKILL while comparing', () => {
  it('leaves a sound database with no half report, and the next compare succeeds', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const lib = experiment(t.dir);
    const db = path.join(t.dir, 'pairwise.db');
    expect(runCli(['index', lib, '--db', db]).status).toBe(0);

    const args = ['compare', '--db', db, '--resamples', '200000', '--format', 'json'];
    // A clean run first, timed, so the kill points fall across this machine's compare: loading,
    // computing in the worker, writing the report, exiting.
    const started = Date.now();
    const clean = runCli(args.map((a) => (a === '200000' ? '150000' : a)));
    expect(clean.status, clean.stderr).toBe(0);
    const duration = Date.now() - started;
    const points = seededIntegers(20261129, 5, 300, 1050).map((permille) =>
      Math.round((permille / 1000) * duration),
    );
    let killedMidway = 0;
    const reportsAfter: number[] = [];
    for (const [i, ms] of points.entries()) {
      // A different resample count each time, so no attempt is answered from an earlier one's cache.
      const child = spawnCli(args.map((a) => (a === '200000' ? String(200_000 - i) : a)));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const signal = await exited;
      clearTimeout(timer);
      if (signal === 'SIGKILL') killedMidway++;
      const state = inspectWithFiles(db);
      reportsAfter.push(state.reports);
      expect(state, `after a kill at ${ms} ms`).toMatchObject({
        integrity: 'ok',
        orphans: 0,
        incomplete: 0,
        missingFiles: 0,
      });
    }
    expect(killedMidway).toBeGreaterThan(0);

    // Aged past the sweep's grace for another process's save in progress.
    const dir = `${db}.pairs`;
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    for (const name of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, name), hourAgo, hourAgo);
    const done = runCli(args);
    expect(done.status, done.stderr).toBe(0);
    const report = JSON.parse(done.stdout) as { comparisons: unknown[] };
    expect(report.comparisons).toHaveLength(3);
    expect(inspectWithFiles(db)).toMatchObject({
      integrity: 'ok',
      orphans: 0,
      incomplete: 0,
      missingFiles: 0,
    });
    // The last run's open swept what the kills left between a file's rename and its commit.
    const files = pairFiles(db);
    expect(files.present).toEqual(files.named);
    const conn = new Database(db, { readonly: true });
    try {
      // Jobs the kills cut short are marked interrupted when the next process starts.
      expect(conn.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'running'`).get()).toEqual({
        n: 0,
      });
    } finally {
      conn.close();
    }
    console.info(
      `compare SIGKILL at ${points.join(', ')} ms: ${killedMidway} of ${points.length} killed mid-run; reports committed after each: ${reportsAfter.join(', ')}; 0 integrity failures`,
    );
  }, 120_000);
});
