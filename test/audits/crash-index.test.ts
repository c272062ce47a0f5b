import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../fixtures/cli';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';
import { seededIntegers } from '../fixtures/random';
import { storedExampleCount } from '../fixtures/stored-examples';

let cleanup = () => undefined as void;
afterEach(() => cleanup());

function library(dir: string, runs: number): string {
  const root = path.join(dir, 'lib');
  for (let i = 0; i < runs; i++) {
    writeMechlensRun(path.join(root, `exp${i % 3}`), {
      id: `run-${String(i).padStart(3, '0')}`,
      name: `cond-${i}`,
      experiment: { id: `exp-${i % 3}`, role: i < 3 ? 'reference' : 'intervention' },
      examples: examples(300, (k) => ({ refused: (k + i) % 3 === 0, score: (k * i) % 5 })),
    });
  }
  return root;
}

interface Counts {
  runs: number;
  examples: number;
  fts: number;
  /** Examples the background search job has recorded as indexed. */
  searchDone: number;
  integrity: string;
}

function counts(db: string): Counts {
  const conn = new Database(db, { readonly: true });
  try {
    return {
      integrity: conn.pragma('integrity_check', { simple: true }) as string,
      runs: (conn.prepare(`SELECT COUNT(*) AS n FROM runs`).get() as { n: number }).n,
      examples: storedExampleCount(conn),
      fts: (conn.prepare(`SELECT COUNT(*) AS n FROM examples_fts`).get() as { n: number }).n,
      searchDone: (
        conn.prepare(`SELECT coalesce(sum(done), 0) AS n FROM run_search`).get() as { n: number }
      ).n,
    };
  } finally {
    conn.close();
  }
}

function killOnceStarted(db: string, child: ChildProcess): void {
  if (!fs.existsSync(db)) return;
  try {
    const conn = new Database(db, { readonly: true });
    try {
      const { n } = conn.prepare(`SELECT COUNT(*) AS n FROM runs`).get() as { n: number };
      if (n > 0) child.kill('SIGKILL');
    } finally {
      conn.close();
    }
  } catch {
    // The schema may not be there yet: the next tick looks again.
  }
}

describe('SIGKILL while indexing', () => {
  it('leaves a database that opens, passes integrity_check, and finishes with the same counts as a clean index', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const root = library(t.dir, 45);
    const clean = path.join(t.dir, 'clean.db');
    expect(runCli(['index', root, '--db', clean]).status).toBe(0);
    const expected = counts(clean);
    expect(expected).toMatchObject({
      runs: 45,
      examples: 45 * 300,
      fts: 45 * 300,
      searchDone: 45 * 300,
      integrity: 'ok',
    });

    const crashed = path.join(t.dir, 'crashed.db');
    const points = seededIntegers(20261129, 6, 400, 2500);
    let killedMidway = 0;
    for (const [pass, ms] of points.entries()) {
      const child = spawnCli(['index', root, '--db', crashed]);
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      // Indexing can finish before any fixed kill time; the first pass is also killed as soon
      // as its first runs are committed, so at least one kill lands mid-index on any machine.
      const watch = pass === 0 ? setInterval(() => killOnceStarted(crashed, child), 5) : null;
      const code = await exited;
      clearTimeout(timer);
      if (watch) clearInterval(watch);
      if (code === null) killedMidway++;
      const state = counts(crashed);
      expect(state.integrity).toBe('ok');
      // Search is filled after indexing commits: a kill may leave it behind the examples, but
      // never out of step with what its job recorded (it resumes from there).
      expect(state.fts).toBe(state.searchDone);
      expect(state.fts).toBeLessThanOrEqual(state.examples);
    }
    expect(killedMidway).toBeGreaterThan(0);
    expect(runCli(['index', root, '--db', crashed]).status).toBe(0);
    expect(counts(crashed)).toEqual(expected);
    const a = JSON.parse(runCli(['runs', '--db', clean, '--json']).stdout) as unknown[];
    const b = JSON.parse(runCli(['runs', '--db', crashed, '--json']).stdout) as unknown[];
    expect(b).toEqual(a);
  }, 180_000);
});
