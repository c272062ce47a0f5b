/**
 * How fast texts are located in their source, read back, and archived, on a generated
 * MechLens run (the benchmark's realistic texts), and how many texts of real files are found:
 *
 *   npx tsx test/bench/texts-located.ts [examples] [--real DIR]
 *
 * Prints MB/s of the source for the locator (whole file, and in the 1 MB batches a large file
 * is read in), the bytes a block takes located and as JSON, MB/s of texts read back from
 * located blocks, and MB/s of texts the archive rewrites as sections.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../electron/core/db/open';
import { importUnit } from '../../electron/core/ingest/importers/index';
import { importMechlens } from '../../electron/core/ingest/importers/mechlens';
import { scanJsonObject } from '../../electron/core/ingest/json-layout';
import { sha1, sortedJson } from '../../electron/core/ingest/prepare';
import { scanPaths } from '../../electron/core/ingest/scan';
import { prepareFillConnection } from '../../electron/core/search/fill';
import { archiveAll } from '../../electron/core/texts/archive';
import { BLOCK_SIZE, encodeJsonBlock } from '../../electron/core/texts/blocks';
import {
  decodeLocatedBlock,
  encodeSourceBlock,
  SourceFiles,
  type LocatedInput,
} from '../../electron/core/texts/located';
import { TextLocator, type LocatedTexts } from '../../electron/core/texts/locate';
import type { ImportedExample } from '../../shared/model';
import { generateLibrary } from './generate';

const MB = 1e6;

function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const value = work();
  return [value, (performance.now() - started) / 1000];
}

function rate(bytes: number, seconds: number): string {
  return `${(bytes / MB).toFixed(1)} MB in ${seconds.toFixed(2)} s = ${(bytes / MB / seconds).toFixed(0)} MB/s`;
}

function locateInBatches(file: string, examples: ImportedExample[]): LocatedTexts[] {
  const fd = fs.openSync(file, 'r');
  try {
    const layout = scanJsonObject(fd, fs.fstatSync(fd).size, 'examples', 1024 ** 2);
    const locator = new TextLocator();
    const found: LocatedTexts[] = [];
    const batches = layout!.array!.batches;
    for (const [i, batch] of batches.entries()) {
      const bytes = Buffer.allocUnsafe(batch.end - batch.start);
      fs.readSync(fd, bytes, 0, bytes.length, batch.start);
      const last = batches[i + 1]?.first ?? examples.length;
      found.push(...locator.locate(bytes, batch.start, examples.slice(batch.first, last)));
    }
    return found;
  } finally {
    fs.closeSync(fd);
  }
}

async function generated(count: number, root: string): Promise<void> {
  const library = generateLibrary(
    {
      name: 'located',
      experiments: 1,
      runsPerExperiment: 1,
      examples: count,
      inputChars: 200,
      outputChars: 600,
    },
    root,
    () => undefined,
  );
  const file = library.files[0]!;
  const size = fs.statSync(file).size;
  const whole = fs.readFileSync(file);
  const { examples } = importMechlens(JSON.parse(whole.toString('utf8')), {
    path: file,
    mtimeMs: 0,
  });
  console.log(`generated MechLens run: ${count} examples, ${(size / MB).toFixed(1)} MB`);
  const [found, wholeSeconds] = timed(() => new TextLocator().locate(whole, 0, examples));
  console.log(`locate, whole file:      ${rate(size, wholeSeconds)}`);
  const [, batchSeconds] = timed(() => locateInBatches(file, examples));
  console.log(`locate, 1 MB batches:    ${rate(size, batchSeconds)}`);
  const located = found.reduce((n, f) => n + (f.input ? 1 : 0) + (f.output ? 1 : 0), 0);
  console.log(`texts located: ${located} of ${examples.length * 2}`);

  const stat = fs.statSync(file);
  const stamp = { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
  const rows: LocatedInput[] = examples.map((e, i) => ({
    input: e.input,
    output: e.output,
    fields: sortedJson(e.fields),
    target: e.target,
    error: e.error,
    located: found[i]!,
    inputHash: sha1(e.input),
    outputHash: sha1(e.output),
  }));
  const db = openDatabase(path.join(root, 'library.db'));
  db.pragma('foreign_keys = OFF');
  prepareFillConnection(db);
  const insert = db.prepare(`INSERT INTO run_texts VALUES (1, ?, ?, ?)`);
  let locatedBytes = 0;
  let jsonBytes = 0;
  const [, encodeSeconds] = timed(() =>
    db.transaction(() => {
      for (let block = 0; block * BLOCK_SIZE < rows.length; block++) {
        const slice = rows.slice(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE);
        const { encoding, data } = encodeSourceBlock(stamp, slice);
        insert.run(block, encoding, data);
        locatedBytes += data.length;
      }
    })(),
  );
  for (let block = 0; block * BLOCK_SIZE < rows.length; block++)
    jsonBytes += encodeJsonBlock(rows.slice(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE)).length;
  console.log(
    `blocks written at indexing: ${(locatedBytes / MB).toFixed(1)} MB located ` +
      `(${encodeSeconds.toFixed(2)} s) instead of ${(jsonBytes / MB).toFixed(1)} MB as JSON`,
  );
  const blocks = db.prepare(`SELECT data FROM run_texts ORDER BY block`).pluck().all() as Buffer[];
  const files = new SourceFiles();
  const [, readSeconds] = timed(() => blocks.forEach((b) => decodeLocatedBlock(b, files)));
  console.log(`read back located:       ${rate(jsonBytes, readSeconds)} (of block JSON)`);
  let archived = 0;
  let compressed = 0;
  const started = performance.now();
  await archiveAll(db, new AbortController().signal, (s) => {
    archived += s.bytes;
    compressed += s.compressedBytes;
  });
  const archiveSeconds = (performance.now() - started) / 1000;
  console.log(
    `archive:                 ${rate(archived, archiveSeconds)} (of sections before compression), ` +
      `${(compressed / MB).toFixed(1)} MB compressed`,
  );
  db.close();
}

/** Texts the locator finds in the real files the importers read as text (JSON, JSON Lines). */
async function real(dir: string): Promise<void> {
  const signal = new AbortController().signal;
  const { units } = await scanPaths([dir], { signal });
  const totals = new Map<string, { texts: number; long: number; located: number }>();
  for (const unit of units) {
    const outcome = await importUnit(unit, { signal }).catch(() => null);
    if (outcome?.status !== 'imported') continue;
    const sources = unit.files.filter((f) => /\.jsonl?$/i.test(f));
    if (sources.length === 0) continue;
    for (const run of outcome.runs) {
      // lm-eval's runs each come from one of the unit's files: the one where most are found.
      let best = 0;
      for (const file of sources) {
        const found = new TextLocator().locate(fs.readFileSync(file), 0, run.examples);
        best = Math.max(
          best,
          found.reduce((n, f) => n + (f.input ? 1 : 0) + (f.output ? 1 : 0), 0),
        );
      }
      const texts = run.examples.flatMap((e) => [e.input, e.output]);
      const total = totals.get(outcome.importer) ?? { texts: 0, long: 0, located: 0 };
      total.texts += texts.length;
      total.long += texts.filter((t) => JSON.stringify(t).length >= 48).length;
      total.located += best;
      totals.set(outcome.importer, total);
    }
  }
  for (const [importer, t] of totals)
    console.log(`${importer}: ${t.located} of ${t.texts} texts located (${t.long} long enough)`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const realAt = args.indexOf('--real');
  if (realAt >= 0) return real(args[realAt + 1]!);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-located-bench-'));
  try {
    await generated(Number(args[0] ?? 100_000), root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
