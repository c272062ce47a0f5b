import fs from 'node:fs';
import path from 'node:path';

let bundledDir: string | null = null;

/** Entry points of the built app call this with their own directory, where the worker bundles sit. */
export function setWorkerDir(dir: string): void {
  bundledDir = dir;
}

/** What `new Worker(script, { eval, execArgv })` needs. */
export interface WorkerEntry {
  script: string;
  eval: boolean;
  /**
   * The worker's Node options, when they must differ from the host's (which a worker inherits
   * by default). Node refuses some host options in a worker's list (V8 flags): the pool then
   * starts it with the host's own (pool.ts).
   */
  execArgv?: string[];
}

/** Options that load code into every thread before its script: a module loader or preload. */
const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

/**
 * The host's Node options without those that load code first. A bundle needs no loader, and
 * a worker inherits them: under `node --import tsx` (the benchmark's phases, scripts) each
 * bundled index worker started tsx's loader, some 200 ms of CPU, which the app never pays.
 */
export function withoutLoaders(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const flag = arg.startsWith('--') ? arg.split('=')[0]! : arg;
    if (!LOADER_FLAGS.has(flag)) kept.push(arg);
    else if (flag === arg) i++;
  }
  return kept;
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
    const execArgv = withoutLoaders(process.execArgv);
    return execArgv.length < process.execArgv.length
      ? { script: bundled, eval: false, execArgv }
      : { script: bundled, eval: false };
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
