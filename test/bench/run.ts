/**
 * `npm run bench -- [--size small|1gb|1m|all] [--keep] [--profile] [--out FILE] [--render RESULTS]`
 *
 * Generates deterministic MechLens libraries under the OS temp dir, measures indexing,
 * comparison, the explorer's queries and the same comparison in DuckDB, each phase in its own
 * child process, then prints the table and writes it to docs/benchmarks.md (for `all`; a
 * partial run writes to the temp dir unless --out says otherwise). Targets are reported,
 * never asserted: a slow machine must not fail a build.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  experimentId,
  libraryFor,
  runId,
  type GeneratedLibrary,
  type LibrarySpec,
} from './generate';
import { againSpec, SPECS } from './specs';
import { codeVersion, describeMachine, timed } from './measure';
import type { CompareArgs, CompareResult } from './phase-compare';
import type { DuckArgs, DuckResult } from './phase-duckdb';
import type {
  BaselineArgs,
  BaselineResult,
  IndexArgs,
  IndexResult,
  OpenedArgs,
  OpenedPass,
} from './phase-index';
import type { LibraryOpenArgs } from './phase-library-open';
import type { RendererArgs, RendererResult } from './phase-renderer';
import type { SearchArgs, SearchResult } from './phase-search';
import { PROFILE_DIR, QUERY_TIMEOUT_SECONDS, runExplorer, runPhase } from './spawn';
import { keepingSections } from './kept-sections';
import { useBuiltWorkers } from './built-workers';
import { BenchProgress, type Step } from './progress';
import { renderMarkdown } from './report';
import type { BenchResults, LibraryResult } from './results';

export type Size = 'small' | '1gb' | '1m';
const SIZES: Size[] = ['small', '1gb', '1m'];
const RESAMPLES = 10_000;
/** A library of this many experiments gets the app's open measured over it. */
const MANY_EXPERIMENTS = 50;
const LIBRARY_OPEN_ROUNDS = 3;
/**
 * The desktop app and the browser host start their index workers as the library opens; a
 * folder dropped this long after is what the small library's "opened" row measures.
 */
const OPENED_DELAY_SECONDS = 1;

interface Options {
  sizes: Size[];
  keep: boolean;
  profile: boolean;
  /** Where the table goes; by default docs/benchmarks.md for `all`, else the temp dir. */
  out: string | null;
  /** Re-render the document from a saved results file instead of measuring. */
  render: string | null;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    sizes: ['small'],
    keep: false,
    profile: false,
    out: null,
    render: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => argv[++i] ?? '';
    if (arg === '--size' || arg.startsWith('--size=')) {
      const raw = arg.includes('=') ? arg.split('=')[1]! : value();
      const sizes = raw === 'all' ? SIZES : raw.split(',');
      if (!sizes.every((s): s is Size => (SIZES as string[]).includes(s)))
        throw new Error(`--size takes small, 1gb, 1m or all (got "${raw}")`);
      options.sizes = sizes;
    } else if (arg === '--keep') options.keep = true;
    else if (arg === '--profile') options.profile = true;
    else if (arg === '--out') options.out = value();
    else if (arg === '--render') options.render = value();
    else
      throw new Error(
        `unknown option ${arg}; usage: npm run bench -- --size small|1gb|1m|all [--keep] [--profile] [--out FILE] [--render RESULTS]`,
      );
  }
  return options;
}

/** Bars on stderr when it is a terminal; the log lines go above them (or to stdout as before). */
const progress = new BenchProgress();

const log = (line: string) =>
  progress.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Runs one step of the benchmark under its own bar. */
async function withBar<T>(label: string, work: (step: Step) => Promise<T> | T): Promise<T> {
  const step = progress.step(label);
  try {
    return await work(step);
  } finally {
    step.stop();
  }
}

async function measureLibrary(
  spec: LibrarySpec,
  root: string,
  options: Options,
  pair: boolean,
): Promise<LibraryResult> {
  const runs = spec.experiments * spec.runsPerExperiment;
  log(`${spec.name}: generating ${runs} runs × ${spec.examples.toLocaleString('en-US')} examples`);
  const generated = await withBar(`${spec.name} generate`, (step) =>
    timed(() => libraryFor(spec, root, log, step.update)),
  );
  const library: GeneratedLibrary = generated.value;
  const result: LibraryResult = {
    spec,
    bytes: library.bytes,
    examples: library.examples,
    files: library.files.length,
    generateSeconds: generated.seconds,
    errors: [],
    phases: [],
  };
  const run = async <T>(name: string, args: unknown): Promise<T | undefined> => {
    const outcome = await withBar(`${spec.name} ${name}`, (step) =>
      runPhase<T>(root, name, args, options.profile, step.update),
    );
    result.phases.push({ ...outcome.meta, phase: `${spec.name} ${name}` });
    if (outcome.ok) return outcome.value;
    result.errors.push(`${name}: ${outcome.error}`);
    return undefined;
  };
  log(`${spec.name}: ${(library.bytes / 1e6).toFixed(0)} MB in ${library.files.length} files`);
  log(`${spec.name}: JSON.parse baseline`);
  result.baseline = await run<BaselineResult>('baseline', {
    files: library.files,
  } satisfies BaselineArgs);
  const dbPath = path.join(root, `${spec.name}.db`);
  log(`${spec.name}: service.index on a fresh DB, then a rescan`);
  // Small libraries are timed once more with the index workers up (phase-index.ts, `again`).
  const again = spec.name === SPECS.small.name ? libraryFor(againSpec(spec), root, log) : null;
  const indexArgs: IndexArgs = {
    dir: library.dir,
    dbPath,
    bytes: library.bytes,
    again: again?.dir,
  };
  result.index = await run<IndexResult>('index', indexArgs);
  if (again) {
    log(`${spec.name}: service.index ${OPENED_DELAY_SECONDS} s after the service opened`);
    const openedDb = path.join(root, `${spec.name}-opened.db`);
    result.indexOpened = await run<OpenedPass>('index-opened', {
      dir: library.dir,
      dbPath: openedDb,
      delaySeconds: OPENED_DELAY_SECONDS,
    } satisfies OpenedArgs);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(openedDb + suffix, { force: true });
  }
  const indexedAll = result.index?.failed === 0 && result.index.imported === library.files.length;
  if (!pair && indexedAll && spec.experiments >= MANY_EXPERIMENTS && hasExplorerUi()) {
    log(`${spec.name}: the app's open over ${spec.experiments} experiments, uninspected`);
    const buildDir = path.join(root, 'renderer-build');
    result.libraryOpen = await run<RendererResult>('library-open', {
      dbPath,
      buildDir,
      rounds: LIBRARY_OPEN_ROUNDS,
    } satisfies LibraryOpenArgs);
    fs.rmSync(buildDir, { recursive: true, force: true });
  }
  if (pair && indexedAll) {
    log(`${spec.name}: compare.run cold, cached, warm (B = ${RESAMPLES.toLocaleString('en-US')})`);
    const args: CompareArgs = { dbPath, experimentId: experimentId(spec, 0), resamples: RESAMPLES };
    result.compare = await run<CompareResult>('compare', args);
  }
  if (result.compare) {
    log(`${spec.name}: explorer first pages (each query stopped after ${QUERY_TIMEOUT_SECONDS} s)`);
    const reportKey = result.compare.reportKey;
    const explorer = await withBar(`${spec.name} explorer`, (step) =>
      runExplorer(root, dbPath, reportKey, options.profile, step.update),
    );
    result.explorer = explorer.queries;
    result.phases.push(
      ...explorer.meta.map((m, i) => ({ ...m, phase: `${spec.name} explorer #${i + 1}` })),
    );
    if (hasExplorerUi()) {
      log(`${spec.name}: renderer long tasks in Chromium`);
      const buildDir = path.join(root, 'renderer-build');
      result.renderer = await run<RendererResult>('renderer', {
        dbPath,
        buildDir,
      } satisfies RendererArgs);
      fs.rmSync(buildDir, { recursive: true, force: true });
    }
  }
  if (result.compare) {
    log(`${spec.name}: search: first search while the index fills, then later searches`);
    const args: SearchArgs = {
      dbPath,
      experimentId: experimentId(spec, 0),
      sources: library.dir,
    };
    result.search = await run<SearchResult>('search', args);
  }
  if (pair) {
    log(`${spec.name}: DuckDB load + join`);
    const file = (r: number) =>
      library.files.find((f) => path.basename(f) === `${runId(spec, 0, r)}.json`)!;
    result.duckdb = await run<DuckResult>('duckdb', {
      reference: { file: file(0), runId: runId(spec, 0, 0) },
      candidate: { file: file(1), runId: runId(spec, 0, 1) },
    } satisfies DuckArgs);
  }
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
  if (!options.keep)
    for (const dir of [library.dir, again?.dir])
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

/** The renderer phase needs the explorer UI, and is skipped where it is missing. */
function hasExplorerUi(): boolean {
  return fs.existsSync(path.resolve(__dirname, '../../renderer/features/examples'));
}

const REPO = path.resolve(__dirname, '../..');
const DOC = path.join(REPO, 'docs/benchmarks.md');
const RAW_RESULTS = path.join(os.tmpdir(), 'pairwise-bench-results.json');

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.render) {
    const saved = JSON.parse(fs.readFileSync(options.render, 'utf8')) as BenchResults;
    const out = options.out ?? DOC;
    fs.writeFileSync(path.resolve(out), keepingSections(path.resolve(out), renderMarkdown(saved)));
    log(`rewrote ${out} from ${options.render}`);
    return;
  }
  // --keep reuses one well-known folder across runs; otherwise a fresh one, removed at the end.
  const root = options.keep
    ? path.join(os.tmpdir(), 'pairwise-bench')
    : fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-bench-'));
  fs.mkdirSync(root, { recursive: true });
  const cleanup = () => {
    if (!options.keep) fs.rmSync(root, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      progress.stop();
      cleanup();
      process.exit(130);
    });
  log(`sizes: ${options.sizes.join(', ')}; working in ${root}${options.keep ? ' (kept)' : ''}`);
  const builtWorkers = useBuiltWorkers();
  log(
    builtWorkers
      ? 'worker threads: the app build (out/main)'
      : 'worker threads: from the sources through tsx (no build to use)',
  );
  const probe = new Database(':memory:');
  const sqlite = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  probe.close();
  const started = new Date();
  const results: BenchResults = {
    date: started.toISOString(),
    sizes: options.sizes,
    machine: describeMachine(sqlite, '', root),
    explorerUi: hasExplorerUi(),
    builtWorkers,
    libraries: {},
    totalSeconds: 0,
    code: { start: codeVersion(REPO), end: null },
  };
  try {
    const want = (size: Size) => options.sizes.includes(size);
    const L = results.libraries;
    if (want('small')) {
      L.small = await measureLibrary(SPECS.small, root, options, false);
      L.pair100k = await measureLibrary(SPECS.pair100k, root, options, true);
    }
    if (want('1gb')) L['1gb'] = await measureLibrary(SPECS['1gb'], root, options, false);
    if (want('1m')) {
      L.pair1m = await measureLibrary(SPECS.pair1m, root, options, true);
      // Only when the realistic file cannot be indexed: then the 1M figures come from this one.
      if (!L.pair1m.compare)
        L.pair1mShort = await measureLibrary(SPECS.pair1mShort, root, options, true);
    }
  } finally {
    cleanup();
  }
  const duck = Object.values(results.libraries).find((l) => l.duckdb?.version)?.duckdb?.version;
  results.machine.duckdb = duck ?? 'not run';
  results.totalSeconds = (Date.now() - started.getTime()) / 1000;
  results.code.end = codeVersion(REPO);
  if (results.code.end.hash !== results.code.start.hash)
    log('warning: product code changed while the benchmark ran; the figures mix versions');
  // Raw figures beside the temp dir: `--render FILE` rewrites the document from them.
  fs.writeFileSync(RAW_RESULTS, JSON.stringify(results, null, 1));
  const markdown = renderMarkdown(results);
  console.log(`\n${markdown}`);
  // A partial run must not replace the committed report, which `all` produces.
  const out =
    options.out ??
    (options.sizes.length === SIZES.length
      ? DOC
      : path.join(os.tmpdir(), 'pairwise-benchmarks.md'));
  fs.writeFileSync(path.resolve(out), keepingSections(path.resolve(out), markdown));
  log(`raw results: ${RAW_RESULTS}`);
  log(`wrote ${out} (${(results.totalSeconds / 60).toFixed(1)} min)`);
  if (options.profile) log(`CPU profiles (one per thread) are in ${PROFILE_DIR}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
