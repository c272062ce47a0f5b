import fs from 'node:fs';
import path from 'node:path';

let bundledDir: string | null = null;

/** Entry points of the built app call this with their own directory, where the worker bundles sit. */
export function setWorkerDir(dir: string): void {
  bundledDir = dir;
}

/** What `new Worker(script, { eval })` needs. */
export interface WorkerEntry {
  script: string;
  eval: boolean;
}

/**
 * The worker script for a name: the bundled `.js` in a built app, else the TypeScript source
 * loaded through tsx's require hook (tests and scripts run from source; Node 20 cannot give a
 * worker a loader through execArgv).
 */
export function workerEntry(name: string): WorkerEntry {
  if (bundledDir) {
    const bundled = path.join(bundledDir, `${name}.worker.js`);
    if (fs.existsSync(bundled)) return { script: bundled, eval: false };
  }
  return sourceWorkerEntry(path.resolve(__dirname, '../../workers', `${name}.worker.ts`));
}

/** A TypeScript worker run from source through tsx (tests, benchmarks). */
export function sourceWorkerEntry(source: string): WorkerEntry {
  const tsx = require.resolve('tsx/cjs/api');
  return {
    script: `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});`,
    eval: true,
  };
}
