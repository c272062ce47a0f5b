import fs from 'node:fs';
import path from 'node:path';

let bundledDir: string | null = null;
let bundledExecArgv: string[] | undefined;

/**
 * Entry points of the built app call this with their own directory, where the worker bundles
 * sit. `execArgv`, when given, is what bundled workers start with instead of the host's Node
 * options, which a worker inherits by default (a preload such as the e2e tests' fixed clock
 * must reach them): the benchmark's phases run under `node --import tsx`, and each worker
 * started tsx's loader too, ~200 ms of CPU per index worker that the app never pays.
 */
export function setWorkerDir(dir: string, execArgv?: string[]): void {
  bundledDir = dir;
  bundledExecArgv = execArgv;
}

/** What `new Worker(script, { eval, execArgv })` needs. */
export interface WorkerEntry {
  script: string;
  eval: boolean;
  /** The worker's Node options; none: the host's own. */
  execArgv?: string[];
}

/**
 * The worker script for a name: the bundled `.js` in a built app, else the TypeScript source
 * loaded through tsx's require hook (tests and scripts run from source; Node 20 cannot give a
 * worker a loader through execArgv).
 */
export function workerEntry(name: string): WorkerEntry {
  if (bundledDir) {
    const bundled = path.join(bundledDir, `${name}.worker.js`);
    if (!fs.existsSync(bundled)) return sourceWorkerEntry(sourceOf(name));
    return { script: bundled, eval: false, execArgv: bundledExecArgv };
  }
  return sourceWorkerEntry(sourceOf(name));
}

function sourceOf(name: string): string {
  return path.resolve(__dirname, '../../workers', `${name}.worker.ts`);
}

/** A TypeScript worker run from source through tsx (tests, benchmarks). */
export function sourceWorkerEntry(source: string): WorkerEntry {
  const tsx = require.resolve('tsx/cjs/api');
  return {
    script: `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});`,
    eval: true,
  };
}
