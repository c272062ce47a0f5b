/**
 * The benchmark's phases run the service's worker threads (index, compare, search) from the
 * app's build, as the desktop app and the CLI run them: through tsx, loading a compare worker's
 * modules alone took ~190 ms against ~14 ms from its bundle, and every imported constant read
 * in a hot loop was a getter call. The phase's own code (the service's thread) stays on the
 * TypeScript sources.
 */

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setWorkerDir } from '../../electron/core/jobs/worker-path';

const ROOT = path.resolve(__dirname, '../..');
const BUILT = path.join(ROOT, 'out', 'main');
const ENV = 'PAIRWISE_BENCH_WORKER_DIR';

/**
 * Builds the app if its sources are newer than the build (what `npx pairwise` does), then has
 * every phase started after this call use the built workers. False when there is no build to
 * use: the phases then run the workers from the sources, and the report says so.
 */
export function useBuiltWorkers(): boolean {
  const launcher = path.join(ROOT, 'electron', 'cli', 'launcher.cjs');
  const built = spawnSync(process.execPath, [launcher, '--build-only'], { stdio: 'inherit' });
  if (built.status !== 0 || !fs.existsSync(path.join(BUILT, 'index.worker.js'))) return false;
  process.env[ENV] = BUILT;
  return true;
}

/** In a phase's process: the build's workers, when the run chose them. */
export function adoptBuiltWorkers(): void {
  const dir = process.env[ENV];
  // Without the phase's own `--import tsx`, as the app's workers start.
  if (dir) setWorkerDir(dir, []);
}
