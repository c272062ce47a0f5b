import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutLoaders } from '../../electron/core/jobs/worker-path';
import { cleanupsAfterEach } from '../fixtures/cleanups';
import { tempDir } from '../fixtures/tmp';

const cleanups = cleanupsAfterEach();
const ROOT = path.resolve(__dirname, '../..');

describe('withoutLoaders', () => {
  it('drops the options that load code first, in both spellings, and keeps the rest', () => {
    expect(
      withoutLoaders([
        '--import',
        'tsx',
        '--enable-source-maps',
        '--require=./a.cjs',
        '-r',
        'b',
        '--loader',
        'c',
        '--experimental-loader=d',
        '--trace-warnings',
      ]),
    ).toEqual(['--enable-source-maps', '--trace-warnings']);
    expect(withoutLoaders([])).toEqual([]);
  });
});

/** What a bundled worker's thread was given, started through the pool by `node ...hostArgs`. */
function bundledWorkerArgv(hostArgs: string[]): string[] {
  const t = tempDir();
  cleanups.push(t.cleanup);
  // A bundled worker answering its first task with the options its thread was given.
  fs.writeFileSync(
    path.join(t.dir, 'probe.worker.js'),
    `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => parentPort.postMessage({ type: 'result', taskId: m.taskId, value: process.execArgv }));`,
  );
  const host = path.join(t.dir, 'host.ts');
  fs.writeFileSync(
    host,
    `import { WorkerPool } from ${JSON.stringify(path.join(ROOT, 'electron/core/jobs/pool'))};
import { setWorkerDir, workerEntry } from ${JSON.stringify(path.join(ROOT, 'electron/core/jobs/worker-path'))};
setWorkerDir(${JSON.stringify(t.dir)});
const pool = new WorkerPool(workerEntry('probe'), 1);
void pool.run({}).then(async (argv) => { console.log(JSON.stringify(argv)); await pool.close(); });
`,
  );
  const printed = execFileSync(process.execPath, [...hostArgs, host], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(printed.trim()) as string[];
}

describe('a bundled worker started by a host run under a loader', () => {
  it('starts without the loader, as it does in the app', () => {
    expect(bundledWorkerArgv(['--import', 'tsx'])).toEqual([]);
  });

  it('still starts when the host also has options Node refuses in a worker list (V8 flags)', () => {
    // Node accepts a V8 flag it inherits, not one it is handed: the worker keeps the host's.
    expect(bundledWorkerArgv(['--stack-size=900', '--import', 'tsx'])).toEqual([
      '--stack-size=900',
      '--import',
      'tsx',
    ]);
  });
});
