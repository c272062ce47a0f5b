/**
 * The rows of the results table: one per figure, with its target, whether it was met and,
 * where it was not, why (the causes were found by profiling and EXPLAIN QUERY PLAN).
 */

import { MB, median, ms, percentile, secs } from './measure';
import type { CompareResult } from './phase-compare';
import type { IndexResult, OpenedPass, WarmPass } from './phase-index';
import type { ExplorerQuery } from './phase-explorer';
import { mb, n, showQuery, type BenchResults, type LibraryResult } from './results';
import { archiveResult } from './rows-archive';
import { libraryOpenRow } from './rows-library-open';
import { searchRows } from './rows-search';
import { QUERY_TIMEOUT_SECONDS } from './spawn';

export interface Row {
  area: string;
  what: string;
  result: string;
  target: string;
  met: '' | 'yes' | 'no';
  why?: string;
}

const rate = (bytes: number, examples: number, seconds: number) =>
  `${(bytes / MB / seconds).toFixed(1)} MB/s, ${n(examples / seconds)} examples/s (${secs(seconds)})`;
const met = (pass: boolean): Row['met'] => (pass ? 'yes' : 'no');
const ratio = (x: number) => `${x < 0.1 ? x.toFixed(3) : x.toFixed(2)}×`;

function describe(lib: LibraryResult): string {
  const s = lib.spec;
  const runs = s.experiments * s.runsPerExperiment;
  return `${s.name} (${n(runs)} runs × ${n(s.examples)}, ${mb(lib.bytes)}, texts ~${s.inputChars}/${s.outputChars} chars)`;
}

function indexRows(lib: LibraryResult, rssTarget: boolean, first: boolean): Row[] {
  const area = `indexing ${describe(lib)}`;
  const rows: Row[] = [];
  const { baseline, index } = lib;
  const parsedAll = baseline && baseline.failures.length === 0;
  rows.push({
    area,
    what: 'baseline: readFileSync + JSON.parse, one thread',
    result: !baseline
      ? 'not measured'
      : parsedAll
        ? rate(baseline.bytes, baseline.examples, baseline.seconds)
        : `cannot parse ${baseline.failures.length} of ${lib.files} files: ${baseline.failures[0]!.message}`,
    target: '',
    met: '',
  });
  if (!index)
    return [
      ...rows,
      { area, what: 'service.index', result: lib.errors.join('; '), target: '', met: '' },
    ];
  const complete = index.failed === 0 && index.imported === lib.files;
  rows.push({
    area,
    what: 'service.index on a fresh DB, end to end',
    result: complete
      ? `${rate(lib.bytes, index.examples, index.seconds)}; DB ${mb(index.dbBytes)}; main thread blocked up to ${secs(index.blockedSeconds ?? 0)} at once`
      : `${index.failed} of ${lib.files} files failed: ${index.problems[0]?.message ?? '?'}`,
    target: complete ? '' : 'indexes every file',
    met: complete ? '' : 'no',
    why: complete ? undefined : 'the indexer refused the file; the result column gives its reason.',
  });
  if (complete && parsedAll) {
    const r = baseline.seconds / index.seconds;
    const writer = index.writerSeconds / index.seconds;
    const held =
      index.lockSeconds === undefined
        ? ''
        : `write lock held ${Math.round((100 * index.lockSeconds) / index.seconds)}% of the wall, ` +
          `commits with their WAL checkpoints ${Math.round((100 * (index.commitSeconds ?? 0)) / index.seconds)}%; `;
    rows.push({
      area,
      what: 'indexing speed ÷ JSON.parse speed',
      result: `${ratio(r)} (${held}index workers writing ${Math.round(writer * 100)}% of the wall, summed, lock waits included; main thread busy ${Math.round(index.mainThreadBusy * 100)}%)`,
      target: '≥ 0.8×',
      met: met(r >= 0.8),
      why: indexWhy(index, baseline.seconds, first, lib.indexOpened),
    });
  }
  if (complete) {
    const peak = Math.max(index.peakRss.sampled, index.peakRss.kernel ?? 0);
    rows.push({
      area,
      what: 'peak RSS while indexing (process incl. worker threads)',
      result: `${mb(peak)} (100 ms samples: ${mb(index.peakRss.sampled)}, kernel VmHWM: ${index.peakRss.kernel === null ? 'n/a' : mb(index.peakRss.kernel)})`,
      target: rssTarget ? '< 1 GB' : '',
      met: rssTarget ? met(peak < 1e9) : '',
      why: 'each index worker holds the unit it is parsing (a whole file under 64 MiB, 1 MB batches of examples above) and V8 lets worker heaps grow well past what is live before collecting.',
    });
    if (index.searchReadySeconds !== undefined)
      rows.push({
        area,
        what: 'search ready: the background full-text job after the pass',
        result: `${secs(index.searchReadySeconds)} more (${rate(lib.bytes, index.examples, index.seconds + index.searchReadySeconds)} counting it)`,
        target: '',
        met: '',
      });
    if (index.archiveReadySeconds !== undefined && index.archive)
      rows.push({
        area,
        what: 'texts archived: the background archive after search',
        result: archiveResult(index.archiveReadySeconds, index.archive, index),
        target: '',
        met: '',
      });
    if (lib.indexOpened && parsedAll)
      rows.push(openedRow(area, lib, lib.indexOpened, baseline.seconds));
    if (index.warm && parsedAll) rows.push(warmRow(area, lib, index.warm, baseline.seconds));
    rows.push({
      area,
      what: 'rescan of the unchanged library (second index call)',
      result: `${secs(index.rescanSeconds)} (${n(index.rescanUnchanged)} unchanged)`,
      target: '',
      met: '',
    });
  }
  return rows;
}

function compareRows(label: string, lib: LibraryResult, targets: boolean): Row[] {
  const c = lib.compare;
  const area = `comparison, ${label}`;
  if (!c)
    return [
      {
        area,
        what: 'compare.run',
        result: lib.errors.join('; ') || 'not measured',
        target: '',
        met: '',
      },
    ];
  const split = (t: CompareResult['cold']) =>
    `${secs(t.seconds)} (compare worker ${secs(t.workerSeconds)}, main thread ${secs(t.seconds - t.workerSeconds)})`;
  return [
    {
      area,
      what: `compare.run cold: first call in a fresh process, B = ${n(c.cold.resamples)}`,
      result: split(c.cold),
      target: '',
      met: '',
    },
    {
      area,
      what: 'compare.run cached: same settings again',
      result: secs(c.cached.seconds),
      target: '',
      met: '',
    },
    {
      area,
      what: `compare.run warm: indexed, worker up, new B = ${n(c.warm.resamples)} so the cache misses`,
      result: `${split(c.warm)}; ${methods(c)}`,
      target: targets ? '< 2 s' : '',
      met: targets ? met(c.warm.seconds < 2) : '',
      why: compareWhy(c),
    },
    ...(c.swapped
      ? [
          {
            area,
            what: `compare.run warm, roles swapped: the same two runs, the other as the reference, B = ${n(c.swapped.resamples)} (the worker mirrors the pairing it kept for the other order)`,
            result: split(c.swapped),
            target: '',
            met: '' as const,
          },
        ]
      : []),
    ...(c.repaired
      ? [
          {
            area,
            what: `compare.run warm, paired anew: compare workers that keep no pairing, after a first comparison loaded both column stores, new B = ${n(c.repaired.resamples)}`,
            result: split(c.repaired),
            target: '',
            met: '' as const,
          },
        ]
      : []),
  ];
}

/**
 * Why indexing is slower than the baseline: the one writer while it holds the lock most of the
 * wall, else the index workers' CPU per byte.
 */
/** A second folder alike, indexed by the same service: what the pass costs with its threads up. */
function warmRow(area: string, lib: LibraryResult, warm: WarmPass, baselineSeconds: number): Row {
  const complete = warm.failed === 0;
  return {
    area,
    what: 'service.index of a second folder alike (other run ids), the index workers already up',
    result: complete
      ? `${rate(lib.bytes, warm.examples, warm.seconds)}: ${ratio(baselineSeconds / warm.seconds)} JSON.parse speed, CPU ${secs(warm.cpuSeconds)}`
      : `${warm.failed} files failed`,
    target: '',
    met: '',
  };
}

/** A fresh service's first pass, its index workers started as it opened (desktop, browser). */
function openedRow(
  area: string,
  lib: LibraryResult,
  opened: OpenedPass,
  baselineSeconds: number,
): Row {
  return {
    area,
    what: `service.index on a fresh DB ${secs(opened.delaySeconds)} after the service opened, its index workers started as it opened (the desktop app and the browser host)`,
    result:
      opened.failed === 0
        ? `${rate(lib.bytes, opened.examples, opened.seconds)}: ${ratio(baselineSeconds / opened.seconds)} JSON.parse speed, CPU ${secs(opened.cpuSeconds)}; ${opened.workersStarted} workers started`
        : `${opened.failed} files failed`,
    target: '',
    met: '',
  };
}

/** What starting the index threads cost a pass, from the same folder indexed again warm. */
function startUp(index: IndexResult, opened?: OpenedPass): string {
  const warm = index.warm;
  if (!warm || warm.failed > 0 || index.cpuSeconds === undefined) return '';
  const loaded =
    opened && opened.failed === 0
      ? ` Started as the service opened (the desktop app, the browser host), they left a first pass ${secs(opened.delaySeconds)} later ${secs(opened.seconds)} and ${secs(opened.cpuSeconds)} of CPU: what is left is their first files running before V8 has optimised them, its compiler busy on other threads (see "Indexing a small library" below).`
      : '';
  return ` With the workers already up, a second folder alike took ${secs(warm.seconds)} and ${secs(warm.cpuSeconds)} of CPU against ${secs(index.seconds)} and ${secs(index.cpuSeconds)}: the rest is starting the index threads, each loading its code and running its first files before V8 has optimised them.${loaded}`;
}

function indexWhy(
  index: IndexResult,
  baselineSeconds: number,
  first: boolean,
  opened?: OpenedPass,
): string {
  return indexLimit(index, baselineSeconds, first) + startUp(index, opened);
}

function indexLimit(index: IndexResult, baselineSeconds: number, first: boolean): string {
  const lock = (index.lockSeconds ?? 0) / index.seconds;
  if (lock >= 0.5)
    return first
      ? `the write lock was held ${Math.round(lock * 100)}% of the wall: storing runs in SQLite takes one writer at a time (full-text search and the texts archive come after, in the background).`
      : `the same: the write lock was held ${Math.round(lock * 100)}% of the wall.`;
  const cpu = index.cpuSeconds ?? 0;
  const cores = cpu / index.seconds;
  return first
    ? `the write lock was held only ${Math.round(lock * 100)}% of the wall; the limit is the index workers' CPU: ${secs(cpu)} of it (${cores.toFixed(1)} cores on average), ${(cpu / baselineSeconds).toFixed(1)}× the baseline's one-thread parse, for parsing each file, a SHA-1 of every input and output, finding each text's literal in its file and building each run's blocks and column store.`
    : `the same: the lock held ${Math.round(lock * 100)}% of the wall, ${secs(cpu)} of CPU (${(cpu / baselineSeconds).toFixed(1)}× the baseline's).`;
}

/** Which interval method each metric got: the engine may approximate at large n. */
function methods(c: CompareResult): string {
  const byMethod = new Map<string, string[]>();
  for (const m of c.summary.metrics) {
    const method = m.method ?? 'no interval';
    byMethod.set(method, [...(byMethod.get(method) ?? []), m.name]);
  }
  return [...byMethod].map(([method, names]) => `${names.join(', ')}: ${method}`).join('; ');
}

function compareWhy(c: CompareResult): string {
  const b = c.breakdown;
  const rows = Math.max(0, b.computeSeconds - b.loadSeconds - b.reportSeconds);
  return (
    `${secs(c.warm.workerSeconds)} in the compare worker, which keeps the column stores, pairing and id lists of its last comparison while the runs are unchanged, so a new B recomputes the intervals and tests and saves the report; ` +
    `re-timed step by step in a process that holds nothing (as a first comparison), the steps are ${secs(b.loadSeconds)} loading both runs (each run's column store from SQLite, viewed as typed arrays), ${secs(b.reportSeconds)} pairing, checks and intervals, ${secs(rows)} building the explorer rows; ` +
    `the service's thread was blocked at most ${secs(c.warm.blockedSeconds ?? 0)} at once.`
  );
}

/**
 * The cause of each slow kind of query, from the plans compare/filters.ts chooses: the labels
 * say which filter was slow, the text says why that kind of plan can be slow.
 */
function explorerWhy(queries: ExplorerQuery[], kind: 'filter' | 'sort'): string {
  const slow = queries.filter((q) => q.seconds >= 0.1).sort((a, b) => b.seconds - a.seconds);
  const has = (prefix: string) => slow.some((q) => q.label.includes(prefix));
  const causes = [
    has('unchanged') || has('improved') || has('regressed')
      ? "the first query on a pair opens its file and reads the arrays it uses (a page's rows row by row), and a filter's first page marks its matches in one pass over them (later pages reuse both)"
      : null,
    has('search')
      ? "a pair's first search for a text collects every full-text match of both runs before the first row comes out (its next pages and count reuse them)"
      : null,
    kind === 'sort' && slow.length > 0
      ? "a sort's first page builds its order over the whole pair once (later pages reuse it)"
      : null,
    slow.length > 0
      ? "a page's inputs and fields are read from the runs' text blocks (256 examples each, compressed once archived): a page whose rows lie all over the pair decodes a block for nearly every row"
      : null,
  ].filter(Boolean);
  const list = slow.map((q) => `${q.label} ${showQuery(q)}`).join(', ') || 'none';
  const why = causes.join('; ');
  return `slow (≥ 100 ms): ${list}.${why ? ` ${why[0]!.toUpperCase()}${why.slice(1)}.` : ''}`;
}

function explorerRows(label: string, lib: LibraryResult, targets: boolean): Row[] {
  const area = `explorer first page, ${label}`;
  const all = lib.explorer;
  if (!all) return [{ area, what: 'pageExamples', result: 'not measured', target: '', met: '' }];
  const rows: Row[] = (['filter', 'sort'] as const).map((kind) => {
    const queries = all.filter((q) => q.kind === kind);
    const times = queries.map((q) => q.seconds);
    const p50 = median(times);
    const p95 = percentile(times, 0.95);
    const shown = (t: number) => showQuery(queries.find((q) => q.seconds === t)!);
    const stopped = queries.filter((q) => q.timedOut).length;
    return {
      area,
      what: `rows after a ${kind === 'filter' ? 'filter change' : 'sort'}: p50 / p95 over ${queries.length} queries (limit 200, no count)`,
      result: `${shown(p50)} / ${shown(p95)}${stopped ? `; ${stopped} stopped at ${QUERY_TIMEOUT_SECONDS} s` : ''}`,
      target: targets ? 'p95 < 100 ms' : '',
      met: targets ? met(p95 < 0.1) : '',
      why: explorerWhy(queries, kind),
    };
  });
  const counts = all.flatMap((q) => (q.countSeconds === null ? [] : [q.countSeconds]));
  if (counts.length > 0) {
    const slowest = [...all].sort((a, b) => (b.countSeconds ?? 0) - (a.countSeconds ?? 0))[0]!;
    rows.push({
      area,
      what: `count of all matches (examples:count, requested beside the page): p50 / p95 over ${counts.length}`,
      result: `${ms(median(counts))} / ${ms(percentile(counts, 0.95))}; slowest: ${slowest.label} ${ms(slowest.countSeconds ?? 0)}`,
      target: '',
      met: '',
    });
  }
  return rows;
}

function duckRows(label: string, lib: LibraryResult): Row[] {
  const d = lib.duckdb;
  const area = `vs DuckDB, ${label}`;
  if (!d || d.error)
    return [{ area, what: 'DuckDB', result: d?.error ?? 'not measured', target: '', met: '' }];
  const rows: Row[] = [
    {
      area,
      what: 'DuckDB cold: read_json both files + unnest + join',
      result: `${secs(d.coldSeconds)} (load ${secs(d.loadSeconds)}; peak RSS ${mb(d.peakRss.kernel ?? d.peakRss.sampled)})`,
      target: '',
      met: '',
    },
    {
      area,
      what: 'DuckDB warm: the join on loaded tables (median of 3)',
      result: secs(d.warmSeconds),
      target: '',
      met: '',
    },
  ];
  const c = lib.compare;
  if (!c || !lib.index) return rows;
  const cold = lib.index.seconds + c.cold.seconds;
  const coldRatio = cold / d.coldSeconds;
  // DuckDB's warm figure joins tables it holds, so it is set against a comparison that pairs
  // anew from the column stores the worker holds, not one that reuses a kept pairing.
  const warm = c.repaired ?? c.warm;
  const warmRatio = warm.seconds / d.warmSeconds;
  rows.push({
    area,
    what: 'Pairwise cold (index + first compare.run) ÷ DuckDB cold',
    result: `${secs(cold)} ÷ ${secs(d.coldSeconds)} = ${ratio(coldRatio)}`,
    target: '≤ 1.3×',
    met: met(coldRatio <= 1.3),
    why: `indexing is ${Math.round((lib.index.seconds / cold) * 100)}% of Pairwise's cold time: besides parsing, it hashes every input and output, finds each text in its file and stores each run's text blocks and column store (full-text search and the archive come after, in the background); DuckDB parses with all cores into memory and stores and indexes nothing.`,
  });
  rows.push({
    area,
    what: c.repaired
      ? 'Pairwise warm, paired anew (compare.run, no kept pairing) ÷ DuckDB warm join'
      : 'Pairwise warm (compare.run, cache miss) ÷ DuckDB warm join',
    result: `${secs(warm.seconds)} ÷ ${secs(d.warmSeconds)} = ${ratio(warmRatio)}`,
    target: '≤ 2×',
    met: met(warmRatio <= 2),
    why: `DuckDB aggregates columns it already holds and stores nothing; Pairwise's time is the warm comparison above: pairing the runs by id from the column stores the worker holds, every check and interval, and saving the report and its per-pair arrays.`,
  });
  return rows;
}

function rendererRow(label: string, lib: LibraryResult | undefined, ui: boolean): Row {
  const area = `renderer long tasks${label ? `, ${label}` : ''}`;
  const what =
    'Chromium via the browser host: open, index a folder with live progress, filter, search, sort, scroll 10,000 rows, select';
  const none = (result: string): Row => ({ area, what, result, target: '', met: '' });
  if (!ui) return none('not measured: the explorer UI is not built yet');
  const result = lib?.renderer;
  if (!result) return none('not measured');
  const steps = result.interactions;
  if (steps.length === 0) return none(`not measured: ${result.error ?? 'no interactions'}`);
  const tasks = steps.reduce((sum, s) => sum + s.longTasks, 0);
  const longest = Math.max(...steps.map((s) => s.longestMs));
  const total = steps.reduce((sum, s) => sum + s.totalMs, 0);
  const slowest = [...steps].sort((a, b) => b.seconds - a.seconds)[0]!;
  const offenders = steps
    .filter((s) => s.longTasks > 0)
    .map((s) => `${s.label}: ${n(s.longTasks)}, longest ${n(s.longestMs)} ms`);
  return {
    ...none(
      `${n(tasks)} long tasks over ${steps.length} interactions, longest ${n(longest)} ms, ${n(total)} ms in all; slowest interaction: ${slowest.label} ${secs(slowest.seconds)}` +
        (result.error ? `; stopped early: ${result.error}` : ''),
    ),
    target: 'no task > 50 ms',
    met: met(tasks === 0),
    why: `long tasks came in ${offenders.join('; ')}. Traced (see "Renderer long tasks at open" and "A new page of rows"), the app's own code takes at most ~20 ms of the renderer thread's CPU in any task at open, but evaluating React DOM's chunk takes 49–75 ms of it on the AMD EPYC machine (~20 ms on the Intel one before it), most of it V8 reading its code again for the positions of the Error objects React creates as it loads; a new page of rows is one frame of ~24 ms of CPU, mostly the browser's style, layout and paint of the rows in view, which a busy machine stretches past 50 ms.`,
  };
}

/** Whether Pairwise and DuckDB computed the same comparison: the benchmark's own sanity check. */
function agreement(lib: LibraryResult): string | null {
  const c = lib.compare;
  const d = lib.duckdb;
  if (!c || !d || d.error) return null;
  const fieldOf: Record<string, string> = {
    refusal_rate: 'refused',
    mean_score: 'score',
    mean_length: 'length',
  };
  const gaps = c.summary.metrics.map((m) =>
    Math.abs((m.difference ?? NaN) - (d.differences[fieldOf[m.name] ?? ''] ?? NaN)),
  );
  const same =
    c.summary.paired === d.paired &&
    c.summary.outputChanged === d.outputChanged &&
    gaps.every((g) => g < 1e-9);
  return `${lib.spec.name}: ${same ? 'agree' : 'DISAGREE'} — pairs ${n(c.summary.paired)} vs ${n(d.paired)}, outputs changed ${n(c.summary.outputChanged)} vs ${n(d.outputChanged)}, largest mean-difference gap ${Math.max(...gaps).toExponential(1)}`;
}

export function buildRows(r: BenchResults): {
  rows: Row[];
  checks: string[];
  pairs: [string, LibraryResult | undefined][];
} {
  const L = r.libraries;
  const rows: Row[] = [];
  const notRun = (area: string, size: string) =>
    rows.push({
      area,
      what: '',
      result: `not run (needs --size ${size} or all)`,
      target: '',
      met: '',
    });
  if (L['1gb']) rows.push(...indexRows(L['1gb'], true, true));
  else notRun('indexing 1gb (1,000 runs × 1,000)', '1gb');
  for (const lib of [L.small, L.pair100k, L.pair1m, L.pair1mShort])
    if (lib) rows.push(...indexRows(lib, false, !L['1gb'] && lib === L.small));
  const oneM = L.pair1m?.compare ? L.pair1m : L.pair1mShort;
  const oneMLabel =
    oneM === L.pair1mShort
      ? '1M pairs (short texts: the realistic 1M file cannot be indexed)'
      : '1M pairs';
  const pairs: [string, LibraryResult | undefined, boolean, string][] = [
    ['100k pairs', L.pair100k, false, 'small'],
    [oneMLabel, oneM, true, '1m'],
  ];
  for (const [label, lib, targets, size] of pairs) {
    if (lib) rows.push(...compareRows(label, lib, targets));
    else notRun(`comparison, ${label}`, size);
  }
  for (const [label, lib, targets, size] of pairs) {
    if (lib) rows.push(...explorerRows(label, lib, targets));
    else notRun(`explorer first page, ${label}`, size);
  }
  for (const [label, lib, targets] of pairs) if (lib) rows.push(...searchRows(label, lib, targets));
  for (const [label, lib] of pairs) {
    if (lib) rows.push(rendererRow(label, lib, r.explorerUi));
  }
  if (!pairs.some(([, lib]) => lib)) rows.push(rendererRow('', undefined, r.explorerUi));
  if (L['1gb']?.libraryOpen) rows.push(libraryOpenRow(L['1gb']));
  const duckLibs = [L.pair100k, L.pair1m?.duckdb ? L.pair1m : undefined, L.pair1mShort].filter(
    (x): x is LibraryResult => !!x,
  );
  for (const lib of duckLibs) rows.push(...duckRows(lib.spec.name, lib));
  if (duckLibs.length === 0) notRun('vs DuckDB', 'small');
  const checks = duckLibs.map(agreement).filter((x): x is string => x !== null);
  return { rows, checks, pairs: pairs.map(([label, lib]) => [label, lib]) };
}
