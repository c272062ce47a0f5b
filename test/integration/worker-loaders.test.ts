import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../fixtures/cleanups';
import { tempDir } from '../fixtures/tmp';

const cleanups = cleanupsAfterEach();
const ROOT = path.resolve(__dirname, '../..');

/**
 * What a bundled worker's thread was given and whether the host's preload ran in it, started
 * through the pool by `node ...hostArgs` with `setWorkerDir(dir, execArgv)`.
 */
function bundledWorker(
  hostArgs: string[],
  execArgv: string[] | undefined,
): { execArgv: string[]; preloaded: boolean } {
  const t = tempDir();
  cleanups.push(t.cleanup);
  fs.writeFileSync(path.join(t.dir, 'preload.cjs'), `globalThis.preloaded = true;`);
  // A bundled worker answering its first task with what its thread was given.
  fs.writeFileSync(
    path.join(t.dir, 'probe.worker.js'),
    `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => parentPort.postMessage({ type: 'result', taskId: m.taskId,
  value: { execArgv: process.execArgv, preloaded: globalThis.preloaded === true } }));`,
  );
  const host = path.join(t.dir, 'host.ts');
  fs.writeFileSync(
    host,
    `import { WorkerPool } from ${JSON.stringify(path.join(ROOT, 'electron/core/jobs/pool'))};
import { setWorkerDir, workerEntry } from ${JSON.stringify(path.join(ROOT, 'electron/core/jobs/worker-path'))};
setWorkerDir(${JSON.stringify(t.dir)}, ${JSON.stringify(execArgv)});
const pool = new WorkerPool(workerEntry('probe'), 1);
void pool.run({}).then(async (value) => { console.log(JSON.stringify(value)); await pool.close(); });
`,
  );
  const args = hostArgs.map((a) => a.replace('PRELOAD', path.join(t.dir, 'preload.cjs')));
  const printed = execFileSync(process.execPath, [...args, host], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(printed.trim()) as { execArgv: string[]; preloaded: boolean };
}

describe('the Node options a bundled worker starts with', () => {
  it("are the host's by default, so a preload reaches the workers (the e2e's fixed clock)", () => {
    const worker = bundledWorker(['--require', 'PRELOAD', '--import', 'tsx'], undefined);
    expect(worker.preloaded).toBe(true);
    expect(worker.execArgv).toContain('--import');
  });

  it('are the list given instead, as the benchmark starts them without its own tsx', () => {
    const worker = bundledWorker(['--require', 'PRELOAD', '--import', 'tsx'], []);
    expect(worker).toEqual({ execArgv: [], preloaded: false });
  });
});
