/**
 * Measuring helpers shared by the benchmark phases: a peak-RSS sampler that keeps sampling
 * while the main thread is blocked, percentiles, and a description of the machine.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/**
 * The sampler lives in its own thread because the single SQLite writer blocks the main thread
 * for seconds at a time (a 1M-example unit is one transaction); a setInterval on the main
 * thread would miss exactly the peaks we care about. rss is per process, so one sample covers
 * the main thread, the index/compare workers and this sampler alike.
 */
const SAMPLER_SOURCE = `
const { workerData } = require('node:worker_threads');
const cells = new Float64Array(workerData);
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > cells[0]) cells[0] = rss;
  cells[1]++;
}, 100);
`;

export interface RssPeak {
  /** Highest of the 100 ms samples. */
  sampled: number;
  /** The kernel's VmHWM for the window (null off Linux). */
  kernel: number | null;
  samples: number;
}

export class RssSampler {
  private readonly cells = new Float64Array(new SharedArrayBuffer(16));
  private readonly worker: Worker;

  constructor() {
    this.worker = new Worker(SAMPLER_SOURCE, { eval: true, workerData: this.cells.buffer });
    this.worker.unref();
  }

  /** Starts a new measuring window: the sampled peak and the kernel's high-water mark. */
  reset(): void {
    this.cells[0] = process.memoryUsage.rss();
    this.cells[1] = 0;
    try {
      // "5" resets VmHWM (Linux ≥ 4.0); where it is not allowed the kernel peak covers the process.
      fs.writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // Not Linux, or not permitted: vmHwm() then reports the process-lifetime peak.
    }
  }

  /** Peak bytes: the larger of the 100 ms samples and the kernel's own high-water mark. */
  peak(): RssPeak {
    return { sampled: this.cells[0]!, kernel: vmHwm(), samples: this.cells[1]! };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

function vmHwm(): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The longest stretch the main thread was blocked while `work` ran. The service answers every
 * request (the UI's too) on this thread, so this is how long the app can stop answering.
 */
export async function longestBlock<T>(
  work: () => Promise<T>,
): Promise<{ value: T; blockedSeconds: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const value = await work();
    // A block is recorded when the monitor's timer next fires; a block just before `work`
    // settles (the last unit's write, the explorer rows) has not been recorded yet.
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { value, blockedSeconds: histogram.max / 1e9 };
  } finally {
    histogram.disable();
  }
}

export async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - start) / 1000 };
}

/** Nearest-rank percentile: with 30 samples p95 is the 29th, an observed value, never interpolated. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1]!;
}

export function median(values: number[]): number {
  return percentile(values, 0.5);
}

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  os: string;
  sqlite: string;
  duckdb: string;
  disk: string;
}

export function describeMachine(sqlite: string, duckdb: string, dir: string): Machine {
  let disk = 'unknown';
  try {
    const line = execFileSync('df', ['-h', dir], { encoding: 'utf8' }).trim().split('\n').at(-1);
    const cols = line?.split(/\s+/) ?? [];
    disk = `${cols[0]} (${cols[1]} total, ${cols[3]} free)`;
  } catch {
    // df is optional: the figure is context, not a result.
  }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    ramGiB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    sqlite,
    duckdb,
    disk,
  };
}

export const MB = 1e6;

export function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2).toLocaleString('en-US')} MiB`;
}

export function secs(seconds: number): string {
  return seconds < 1
    ? `${Math.round(seconds * 1000)} ms`
    : `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
}

export function ms(seconds: number): string {
  return `${(seconds * 1000).toFixed(seconds < 0.01 ? 1 : 0)} ms`;
}

/** Busy and total CPU time of the whole machine so far, in seconds, from /proc/stat. */
export function machineCpu(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    // idle + iowait are the not-busy columns.
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    const hz = 100;
    return { busy: (total - idle) / hz, total: total / hz };
  } catch {
    return null;
  }
}

/**
 * Other people's builds and tests share this machine. Before a phase, wait (up to `maxSeconds`)
 * until the machine is nearly idle, and say how busy it was when we gave up waiting. `onBusy`
 * hears each second that was still too busy, so a wait of minutes is never silent.
 */
export async function waitForQuiet(
  onBusy: (busy: number) => void = () => undefined,
  maxSeconds = 180,
  threshold = 0.2,
): Promise<number> {
  const deadline = performance.now() + maxSeconds * 1000;
  for (;;) {
    const a = machineCpu();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const b = machineCpu();
    if (!a || !b) return 0;
    const busy = (b.busy - a.busy) / Math.max(1e-9, b.total - a.total);
    if (busy < threshold || performance.now() > deadline) return busy;
    onBusy(busy);
  }
}

export interface CodeVersion {
  commit: string;
  /** Product files (electron/, shared/) that differ from the commit. */
  dirty: string[];
  /** SHA-1 over every product source file, to notice edits made while the benchmark runs. */
  hash: string;
}

/**
 * Which code was measured. Other engineers edit the same working tree, so the commit alone is
 * not enough: the uncommitted product files are listed, and hashed at the start and the end.
 */
export function codeVersion(root: string): CodeVersion {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  let commit = 'unknown';
  let dirty: string[] = [];
  try {
    commit = git('rev-parse', '--short', 'HEAD').trim();
    dirty = git('status', '--porcelain', '--', 'electron', 'shared')
      .split('\n')
      .filter(Boolean)
      // Porcelain lines are "XY path": two status columns and a space.
      .map((line) => line.slice(3));
  } catch {
    // Not a git checkout: the hash below still tells whether the code moved during the run.
  }
  const hash = createHash('sha1');
  const walk = (dir: string) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(ts|tsx|cjs|js)$/.test(entry.name))
        hash.update(file).update(fs.readFileSync(file));
    }
  };
  for (const dir of ['electron', 'shared']) walk(path.join(root, dir));
  return { commit, dirty, hash: hash.digest('hex') };
}
