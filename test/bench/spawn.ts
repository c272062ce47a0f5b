/**
 * Starting phases in child processes (child.ts) from the driver, and the explorer's watchdog.
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JobProgress } from '../../shared/jobs';
import { machineCpu, waitForQuiet } from './measure';
import {
  explorerQueryCount,
  queryLabel,
  type ExplorerArgs,
  type ExplorerQuery,
} from './phase-explorer';
import { isProgressMessage } from './progress';

/** How the machine was used while a phase ran: other processes' CPU makes a figure suspect. */
export interface PhaseMeta {
  phase: string;
  wallSeconds: number;
  /** CPU time of the phase's own process, all threads. */
  cpuSeconds: number;
  /** Share of the machine's CPU capacity used by other processes meanwhile (0–1). */
  othersShare: number;
  /** Machine busy share in the second before the phase started, after waiting for quiet. */
  busyBefore: number;
}

export type Outcome<T> =
  { ok: true; value: T; meta: PhaseMeta } | { ok: false; error: string; meta: PhaseMeta };

/** Where --profile writes .cpuprofile files: outside the work dir, so cleanup keeps them. */
export const PROFILE_DIR = path.join(os.tmpdir(), 'pairwise-bench-profiles');

/** Hears how far a phase's child has got. */
export type OnProgress = (progress: JobProgress) => void;

/** A query slower than this is stopped: 100× the explorer's target is not a page load. */
export const QUERY_TIMEOUT_SECONDS = 30;

interface Started {
  done: Promise<number | null>;
  kill: () => void;
  resultFile: string;
  /** Reads the child's result file and accounts for the machine's use meanwhile. */
  finish: <T>() => { value: T | null; meta: PhaseMeta };
}

async function start(
  root: string,
  name: string,
  args: unknown,
  profile: boolean,
  onProgress: OnProgress,
): Promise<Started> {
  const busyBefore = await waitForQuiet((busy) =>
    onProgress({
      phase: `waiting for a quiet machine (${Math.round(busy * 100)}% busy)`,
      done: 0,
      total: null,
    }),
  );
  onProgress({ phase: 'running', done: 0, total: null });
  const cpuBefore = machineCpu();
  const startedAt = performance.now();
  const stamp = `${name}-${Date.now()}`;
  const argsFile = path.join(root, `${stamp}.args.json`);
  const resultFile = path.join(root, `${stamp}.result.json`);
  fs.writeFileSync(argsFile, JSON.stringify(args));
  const flags = profile ? ['--cpu-prof', '--cpu-prof-dir', path.join(PROFILE_DIR, stamp)] : [];
  const child = path.join(__dirname, 'child.ts');
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', ...flags, child, name, argsFile, resultFile],
    // The IPC channel carries the child's progress (progress.ts reportProgress).
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  proc.on('message', (message) => {
    if (isProgressMessage(message)) onProgress(message.progress);
  });
  const done = new Promise<number | null>((resolve) => {
    proc.on('exit', (code) => {
      fs.rmSync(argsFile, { force: true });
      resolve(code);
    });
  });
  const finish = <T>() => {
    const cpuAfter = machineCpu();
    const wallSeconds = (performance.now() - startedAt) / 1000;
    let value: T | null = null;
    let cpuSeconds = 0;
    if (fs.existsSync(resultFile)) {
      const parsed = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as {
        value: T;
        cpuSeconds: number;
      };
      value = parsed.value;
      cpuSeconds = parsed.cpuSeconds;
      fs.rmSync(resultFile, { force: true });
    }
    const capacity = cpuBefore && cpuAfter ? cpuAfter.total - cpuBefore.total : 0;
    const busy = cpuBefore && cpuAfter ? cpuAfter.busy - cpuBefore.busy : 0;
    const othersShare = capacity > 0 ? Math.max(0, busy - cpuSeconds) / capacity : 0;
    return { value, meta: { phase: name, wallSeconds, cpuSeconds, othersShare, busyBefore } };
  };
  return { done, kill: () => proc.kill('SIGKILL'), resultFile, finish };
}

/** Runs one phase in a fresh process; a crashed phase is recorded, never fatal to the rest. */
export async function runPhase<T>(
  root: string,
  name: string,
  args: unknown,
  profile: boolean,
  onProgress: OnProgress = () => undefined,
): Promise<Outcome<T>> {
  const child = await start(root, name, args, profile, onProgress);
  const code = await child.done;
  const { value, meta } = child.finish<T>();
  if (code !== 0 || value === null)
    return { ok: false, error: `the ${name} phase exited with code ${code}`, meta };
  return { ok: true, value, meta };
}

/**
 * Runs every explorer query, killing the child when one runs past the timeout (better-sqlite3
 * cannot interrupt a statement, and a worker thread cannot be stopped inside one), recording
 * it as timed out and going on from the next query in a fresh process.
 */
export async function runExplorer(
  root: string,
  dbPath: string,
  reportKey: string,
  profile: boolean,
  onProgress: OnProgress = () => undefined,
): Promise<{ queries: ExplorerQuery[]; meta: PhaseMeta[] }> {
  const metas: PhaseMeta[] = [];
  const progressFile = path.join(root, `explorer-${Date.now()}.jsonl`);
  const results: ExplorerQuery[] = [];
  const read = () =>
    fs.existsSync(progressFile)
      ? fs
          .readFileSync(progressFile, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as ExplorerQuery)
      : [];
  while (results.length < explorerQueryCount) {
    fs.rmSync(progressFile, { force: true });
    const from = results.length;
    const args: ExplorerArgs = { dbPath, reportKey, from, progressFile };
    const child = await start(root, 'explorer', args, profile, onProgress);
    let exited = false;
    void child.done.then(() => (exited = true));
    let seen = 0;
    let since = performance.now();
    while (!exited) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const count = read().length;
      if (count !== seen) {
        seen = count;
        since = performance.now();
        onProgress({ phase: 'queries', done: from + count, total: explorerQueryCount });
      } else if (performance.now() - since > QUERY_TIMEOUT_SECONDS * 1000) {
        child.kill();
        await child.done;
        break;
      }
    }
    const finished = read();
    results.push(...finished);
    metas.push(child.finish().meta);
    if (results.length < explorerQueryCount) {
      // Stopped, or crashed: the query it was on counts as timed out, and we go on past it.
      results.push({
        ...queryLabel(results.length),
        seconds: QUERY_TIMEOUT_SECONDS,
        countSeconds: null,
        total: null,
        timedOut: true,
      });
    }
  }
  fs.rmSync(progressFile, { force: true });
  return { queries: results, meta: metas };
}
