import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PairwiseService } from '../../electron/core/service';
import { runCli } from '../fixtures/cli';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';
import { cleanupsAfterEach } from '../fixtures/cleanups';
import { storedExampleCount } from '../fixtures/stored-examples';

const cleanups = cleanupsAfterEach();

function library(root: string, prefix: string, runs: number): string {
  for (let i = 0; i < runs; i++) {
    writeMechlensRun(path.join(root, `${prefix}${i % 4}`), {
      id: `${prefix}-${i}`,
      name: `${prefix}-cond-${i}`,
      experiment: { id: `exp-${prefix}`, role: i === 0 ? 'reference' : 'intervention' },
      examples: examples(250),
    });
  }
  return root;
}

describe('two processes on one database', () => {
  it('an app and the CLI index at the same time without "database is locked" and without losing rows', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const db = path.join(t.dir, 'shared.db');
    const a = library(path.join(t.dir, 'a'), 'a', 24);
    const b = library(path.join(t.dir, 'b'), 'b', 24);
    const service = new PairwiseService({
      dbPath: db,
      host: 'browser',
      version: 'test',
      indexWorkers: 1,
    });
    cleanups.push(() => service.close());
    const root = path.resolve(__dirname, '../..');
    const cli = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'electron/cli/pairwise.ts'),
        'index',
        b,
        '--db',
        db,
        '--json',
      ],
      {
        cwd: root,
        env: { ...process.env, PAIRWISE_CLI_MAIN: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    cli.stdout.on('data', (c: Buffer) => (out += c.toString()));
    cli.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const cliDone = new Promise<number | null>((resolve) => cli.on('exit', resolve));
    const [stats, code] = await Promise.all([service.index([a]), cliDone]);
    expect(err).not.toMatch(/locked|busy/i);
    expect(code).toBe(0);
    expect(stats.sources.failed).toBe(0);
    expect((JSON.parse(out) as { sources: { failed: number } }).sources.failed).toBe(0);
    expect(service.db.prepare(`SELECT COUNT(*) AS n FROM runs`).get()).toEqual({ n: 48 });
    expect(storedExampleCount(service.db)).toBe(48 * 250);
    const runs = JSON.parse(runCli(['runs', '--db', db, '--json']).stdout) as unknown[];
    expect(runs).toHaveLength(48);
  }, 120_000);
});
