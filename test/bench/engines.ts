/**
 * `npx tsx test/bench/engines.ts [ROOT] [--spec pair1mShort|pair100k]`: the built-in engine
 * against the DuckDB engine on one generated library (a million pairs by default), each step a
 * run of the built CLI (`npx electron-vite build` first) under /usr/bin/time for its wall time
 * and peak RSS. Prints one Markdown table row per step and checks that both engines printed the
 * same report. Figures are reported, never asserted. `--write` also puts the table into
 * docs/benchmarks.md (its `engines` section, which `npm run bench` carries over).
 */

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { libraryFor, type LibrarySpec } from './generate';
import { sectionEnd, sectionStart, withSection } from './kept-sections';

/** As test/bench/run.ts's specs of the same names (importing it would run the whole bench). */
const SPECS = {
  pair100k: { name: 'pair100k', experiments: 1, runsPerExperiment: 2, examples: 100_000 },
  pair1mShort: { name: 'pair1m-short', experiments: 1, runsPerExperiment: 2, examples: 1_000_000 },
} satisfies Record<string, Omit<LibrarySpec, 'inputChars' | 'outputChars'>>;
const TEXT = { pair100k: [200, 600], pair1mShort: [60, 180] } as const;

const args = process.argv.slice(2);
const specAt = args.indexOf('--spec');
const specName = (specAt >= 0 ? args[specAt + 1] : 'pair1mShort') as keyof typeof SPECS;
const root = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--spec') ?? os.tmpdir();
const [inputChars, outputChars] = TEXT[specName];
const spec: LibrarySpec = { ...SPECS[specName], inputChars, outputChars };
const work = path.join(root, `engines-${spec.name}`);
const cli = path.resolve(__dirname, '../../out/main/cli.js');
const rows: string[] = [];

function step(label: string, cliArgs: string[]): { seconds: number; rssMb: number } {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, cli, ...cliArgs], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const timing = result.stderr.trim().split('\n').pop()!.split(' ');
  if (result.status !== 0) throw new Error(`${label} failed: ${result.stderr}`);
  const figures = { seconds: Number(timing[0]), rssMb: Math.round(Number(timing[1]) / 1024) };
  rows.push(`| ${label} | ${figures.seconds.toFixed(1)} s | ${figures.rssMb} MB |`);
  console.log(rows.at(-1));
  return figures;
}

fs.mkdirSync(work, { recursive: true });
const library = libraryFor(spec, root, (line) => console.error(line));
const db = path.join(work, 'library.db');
const exportDir = path.join(work, 'export');
fs.rmSync(db, { force: true });
fs.rmSync(exportDir, { recursive: true, force: true });
const builtin = path.join(work, 'builtin.json');
const duck = path.join(work, 'duckdb.json');
console.log(
  `${spec.name}: ${library.examples.toLocaleString('en')} examples in ${library.files.length} runs`,
);
console.log('| step | wall | peak RSS |\n| --- | --- | --- |');
step('index', ['index', library.dir, '--db', db, '--json']);
step('compare, built-in engine', ['compare', '--db', db, '--format', 'json', '--out', builtin]);
step('export parquet (report cached)', ['export', 'parquet', exportDir, '--db', db]);
step('compare --engine duckdb --parquet', [
  'compare',
  '--engine',
  'duckdb',
  '--parquet',
  exportDir,
  '--format',
  'json',
  '--out',
  duck,
]);
step('compare --engine duckdb --db (export to a temp folder first)', [
  'compare',
  '--engine',
  'duckdb',
  '--db',
  db,
  '--format',
  'json',
  '--out',
  `${duck}.db`,
]);
const same =
  fs.readFileSync(builtin, 'utf8') === fs.readFileSync(duck, 'utf8') &&
  fs.readFileSync(builtin, 'utf8') === fs.readFileSync(`${duck}.db`, 'utf8');
const sizes = fs
  .readdirSync(exportDir)
  .map((f) => `${f} ${(fs.statSync(path.join(exportDir, f)).size / 2 ** 20).toFixed(1)} MB`);
console.log(
  `reports identical: ${same}; library ${(fs.statSync(db).size / 2 ** 20).toFixed(0)} MB`,
);
console.log(`export: ${sizes.join(', ')}`);

if (args.includes('--write')) {
  const doc = path.resolve(__dirname, '../../docs/benchmarks.md');
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout;
  const section = [
    sectionStart('engines'),
    '## The built-in engine and the DuckDB engine, side by side',
    '',
    `Written by \`npx tsx test/bench/engines.ts ROOT --spec ${specName} --write\` on ` +
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC at ${commit.trim()}, load ` +
      `average ${os.loadavg()[0]!.toFixed(1)} at the end: ${spec.name}, ` +
      `${library.examples.toLocaleString('en')} examples in ${library.files.length} runs, each ` +
      'step a run of the built CLI (wall time and peak RSS from /usr/bin/time).',
    '',
    '| step | wall | peak RSS |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `Reports byte-identical between the engines: **${same ? 'yes' : 'NO'}**. ` +
      `Library ${(fs.statSync(db).size / 2 ** 20).toFixed(0)} MB; export: ${sizes.join(', ')}.`,
    sectionEnd('engines'),
    '',
  ].join('\n');
  fs.writeFileSync(doc, withSection(fs.readFileSync(doc, 'utf8'), 'engines', section));
  console.log(`wrote ${doc}`);
}
