import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';

const root = path.resolve(__dirname, '../..');
const entry = path.join(root, 'electron/cli/pairwise.ts');
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

let cleanup = () => undefined as void;
afterEach(() => cleanup());

describe.skipIf(process.platform === 'win32')('pairwise compare into a slow pipe', () => {
  it('writes the whole report before it exits, however slowly the reader reads', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const lib = path.join(t.dir, 'lib');
    writeMechlensRun(lib, { id: 'ref', name: 'reference', examples: examples(5_000) });
    writeMechlensRun(lib, {
      id: 'int',
      name: 'steer',
      experiment: { id: 'exp-test', role: 'intervention' },
      examples: examples(5_000, (i) => ({ refused: i % 3 === 0, score: i % 4 })),
    });
    const db = path.join(t.dir, 'p.db');
    expect(runCli(['index', lib, '--db', db]).status).toBe(0);
    const file = path.join(t.dir, 'report.json');
    const args = ['compare', '--db', db, '--format', 'json', '--resamples', '200'];
    expect(runCli([...args, '--out', file]).status).toBe(0);
    const expected = fs.readFileSync(file, 'utf8');
    // More than a pipe holds (64 KB), so most of it waits in the CLI until the reader reads.
    expect(expected.length).toBeGreaterThan(80 * 1024);

    // A real pipe (64 KB) to a reader that starts late, as `pairwise compare … | slow-tool`.
    const cli = [process.execPath, '--import', 'tsx', entry, ...args].map(quote).join(' ');
    const child = spawn('sh', ['-c', `${cli} | (sleep 2; cat)`], {
      cwd: root,
      env: { ...process.env, PAIRWISE_CLI_MAIN: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    // Before the fix it was cut off at 64 KB: the CLI exited with the rest still in its buffer.
    expect(stdout.length).toBe(expected.trimEnd().length + 1);
    expect(JSON.parse(stdout)).toEqual(JSON.parse(expected));
  }, 60_000);
});
