/**
 * Turns the measured figures into the table printed at the end of a run and written to
 * docs/benchmarks.md. Every number in the document comes from the run that wrote it.
 */

import { ms, secs } from './measure';
import { buildRows } from './rows';
import { escape, n, showQuery, type BenchResults, type LibraryResult } from './results';

/** Every explorer query of both pair sizes side by side: the detail behind the percentiles. */
function explorerDetail(libs: [string, LibraryResult | undefined][]): string[] {
  const present = libs.filter((entry): entry is [string, LibraryResult] => !!entry[1]?.explorer);
  if (present.length === 0) return [];
  const first = present[0]![1].explorer!;
  return [
    '## Explorer queries in detail',
    '',
    `| query | kind | ${present.map(([label]) => `${label}: rows page / count (matches)`).join(' | ')} |`,
    `| --- | --- | ${present.map(() => '---').join(' | ')} |`,
    ...first.map((q, i) => {
      const cells = present.map(([, lib]) => {
        const r = lib.explorer![i]!;
        const count = r.countSeconds === null ? '?' : ms(r.countSeconds);
        return `${showQuery(r)} / ${count} (${r.total === null ? '?' : n(r.total)})`;
      });
      return `| ${escape(q.label)} | ${q.kind} | ${cells.join(' | ')} |`;
    }),
    '',
  ];
}

function codeLine(r: BenchResults): string {
  const { start, end } = r.code;
  const dirty = start.dirty.length
    ? ` plus uncommitted changes to ${start.dirty.length} product files (${start.dirty.join(', ')})`
    : '';
  const moved =
    end && end.hash !== start.hash
      ? ' **Warning: product code changed while the benchmark ran, so these figures mix versions.**'
      : ' The product code did not change during the run.';
  return `Code: commit ${start.commit}${dirty}.${moved}`;
}

/** Each step of the Chromium session: how long it took and what it cost the renderer. */
function rendererDetail(libs: [string, LibraryResult | undefined][]): string[] {
  const present = libs.filter(
    (entry): entry is [string, LibraryResult] => (entry[1]?.renderer?.interactions.length ?? 0) > 0,
  );
  return present.flatMap(([label, lib]) => [
    `## Renderer session in detail, ${label}`,
    '',
    '| step | time to settle | long tasks | longest | total |',
    '| --- | --- | --- | --- | --- |',
    ...lib.renderer!.interactions.map(
      (s) =>
        `| ${escape(s.label)} | ${secs(s.seconds)} | ${s.longTasks} | ${n(s.longestMs)} ms | ${n(s.totalMs)} ms |`,
    ),
    '',
  ]);
}

export function renderMarkdown(r: BenchResults): string {
  const { rows, checks, pairs } = buildRows(r);
  const m = r.machine;
  const lines = [
    '# Benchmarks',
    '',
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- --size ${r.sizes.length === 3 ? 'all' : r.sizes.join(',')}\` (${(r.totalSeconds / 60).toFixed(1)} min).`,
    '',
    codeLine(r),
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM, ${m.os}, Node ${m.node}, SQLite ${m.sqlite}, DuckDB ${m.duckdb}, disk ${m.disk}.`,
    '',
    'Targets are reported, never asserted. Every figure is one run on this machine; files were just',
    'written, so they are in the OS page cache for Pairwise, the baseline and DuckDB alike.',
    `The machine is shared: other processes took at most ${Math.round(worstContention(r) * 100)}% of its CPU during any one phase (see the last section).`,
    '',
    '| area | measurement | result | target | met? |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${[row.area, row.what, row.result, row.target, row.met].map(escape).join(' | ')} |`,
    ),
    '',
  ];
  const missed = rows.filter((row) => row.met === 'no' && row.why);
  if (missed.length > 0) {
    lines.push('## Why targets were missed', '');
    for (const row of missed) lines.push(`- **${row.area} — ${row.what}**: ${row.why}`);
    lines.push('');
  }
  lines.push(...explorerDetail(pairs));
  lines.push(...rendererDetail(pairs));
  if (checks.length > 0)
    lines.push('## Cross-check with DuckDB', '', ...checks.map((c) => `- ${c}`), '');
  const errors = Object.values(r.libraries).flatMap((lib) =>
    lib.errors.map((e) => `${lib.spec.name}: ${e}`),
  );
  if (errors.length > 0)
    lines.push('## Phases that failed', '', ...errors.map((e) => `- ${e}`), '');
  lines.push(...loadSection(r));
  lines.push(...method(r));
  return lines.join('\n');
}

export function method(r: Pick<BenchResults, 'builtWorkers'>): string[] {
  const workers = r.builtWorkers
    ? [
        "- The service's worker threads (index, compare, search) run from the app's build",
        '  (`out/main`, built first when older than the sources), as the desktop app and the CLI',
        "  run them, without the phase's `--import tsx` (a bundle needs no loader); the phase's own",
        "  code, the service's thread included, runs from the TypeScript sources through tsx.",
      ]
    : [
        "- The service's worker threads ran from the TypeScript sources through tsx (no build",
        "  was at hand), slower to load than the built app's (a compare worker ~190 ms, not ~14).",
      ];
  return METHOD.flatMap((line) => (line === WORKERS ? workers : [line]));
}

/** Other processes share this machine; each phase says how much CPU they took meanwhile. */
function loadSection(r: BenchResults): string[] {
  const phases = Object.values(r.libraries).flatMap((lib) => lib.phases);
  if (phases.length === 0) return [];
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return [
    '## Machine load during each phase',
    '',
    'Before each phase the driver waits (up to 3 min) for the machine to be < 20% busy. "others"',
    'is the share of the whole machine (all cores) that other processes used while the phase ran;',
    "above ~10% treat that phase's wall times as pessimistic. Chromium's helper processes are",
    'not all children of the renderer phase, so part of that phase\'s "others" is its browser.',
    '',
    '| phase | wall | own CPU | others | busy before |',
    '| --- | --- | --- | --- | --- |',
    ...phases.map(
      (p) =>
        `| ${p.phase} | ${secs(p.wallSeconds)} | ${secs(p.cpuSeconds)} | ${pct(p.othersShare)} | ${pct(p.busyBefore)} |`,
    ),
    '',
  ];
}

export function worstContention(r: BenchResults): number {
  const phases = Object.values(r.libraries).flatMap((lib) => lib.phases);
  return Math.max(0, ...phases.map((p) => p.othersShare));
}

/** Replaced by the line on where the worker threads came from. */
const WORKERS = '<where the worker threads came from>';

const METHOD = [
  '## How it is measured',
  '',
  '- Libraries are generated deterministically (test/bench/generate.ts) in the MechLens layout',
  '  `<dir>/.mechlens/runs/<id>.json`: per example an input of ~200 and an output of ~600',
  '  characters (±50%), and three fields: `refused` (bool), `score` (1–5) and `length`',
  '  (the output length). Candidates keep the reference output for 70% of examples. The',
  "  realistic 1M-example file (~880 MB) is over V8's string limit for the JSON.parse baseline;",
  '  Pairwise reads it in batches. Only if it cannot be indexed does a second 1M pair with',
  '  60/180-character texts (`pair1m-short`) stand in for the 1M figures.',
  '- Each phase runs in a fresh child process (test/bench/child.ts), so peak RSS and JIT state',
  '  belong to that phase alone. Peak RSS is the larger of 100 ms samples taken on a separate',
  '  thread (so a blocked main thread cannot hide a peak) and the kernel high-water mark.',
  '  "Blocked" is the longest event-loop delay of the main thread, which answers the UI.',
  WORKERS,
  '- Indexing is `PairwiseService.index` on a fresh DB; the rescan is a second call. The small',
  '  library is then generated again under other run ids and indexed by the same service, its',
  '  index workers up and warm (a diagnostic of what starting them costs a pass).',
  '  Then, as in the app, search is prepared and the texts archived in the background: "texts',
  '  archived" is `service.archive.idle()` after search was ready, the JSON bytes of the blocks',
  '  it compressed and what they take now, and the pages the database uses (free pages left',
  '  out: the file keeps its size) when search was ready and once the archive was done.',
  '- Comparisons go through `service.compare.run`, i.e. the compare worker, which also saves',
  '  the report and its per-pair arrays. "worker" time runs from `pool.run` to its result; the worker\'s',
  '  steps are then re-timed one by one in the benchmark process on the same DB.',
  '- Explorer queries call `pageExamples` with `countTotal: false` and then `countExamples`,',
  '  as the UI asks for them; each is a first page (limit 200), stopped after 30 s.',
  '- Renderer long tasks: the renderer is built into a temp dir, served by the browser host on',
  '  the same DB and driven in /usr/bin/chromium with playwright-core; a PerformanceObserver',
  "  counts long tasks (> 50 ms) per step. Playwright's DevTools session makes every `Error`",
  "  the page creates cost V8 a parse of the functions on its stack (React DOM's load: ~45–100",
  '  ms), so the last step opens the app again in a page no session is attached to and reads',
  '  its tasks over 50 ms from a trace (test/bench/open-uninspected.ts). The indexed 1gb',
  '  library (100 experiments, 1,000 runs) is opened the same way three times, for the cards',
  '  a library of many experiments renders at open (test/bench/phase-library-open.ts).',
  '- Search (test/bench/phase-search.ts): the full-text index is emptied as if just indexed, a',
  '  service starts filling it, and the explorer asks for a rare word at once and every 250 ms',
  '  while the answer is "preparing search"; a write on the service\'s connection every 100 ms',
  '  times its wait for the lock. Then 16 new words (8 common, 8 rare), first page each.',
  '- DuckDB runs in-process through @duckdb/node-api on an in-memory database.',
  '- `npm run bench -- --profile` writes a .cpuprofile per thread of every phase;',
  "  `--render FILE` rewrites this page from a run's saved figures.",
  '- On a terminal, a live bar on stderr follows each step (generating a library, the wait for a',
  '  quiet machine, each phase, reported by its child over an IPC channel); piped, only the log',
  '  lines are printed.',
  '',
];
