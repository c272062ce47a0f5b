/**
 * Deterministic generator of large MechLens libraries for the benchmark. Same spec, same bytes:
 * every text and value comes from integer hashes of (experiment, run, example), never from
 * Math.random, so two runs of the benchmark measure the same library.
 *
 * Files are written example by example through small buffers: a 1M-example run is ~880 MB,
 * more than V8 can hold as one string, so nothing here ever builds a whole file in memory.
 */

import fs from 'node:fs';
import path from 'node:path';
import type { JobProgress } from '../../shared/jobs';
import { mechlensRecord } from '../fixtures/formats';
import { mulberry32 } from '../fixtures/random';

export interface LibrarySpec {
  /** Folder name under the benchmark's temp dir, and the run id prefix. */
  name: string;
  experiments: number;
  runsPerExperiment: number;
  examples: number;
  /** Mean text lengths in characters (each text varies ±50% around it). */
  inputChars: number;
  outputChars: number;
}

export interface GeneratedLibrary {
  spec: LibrarySpec;
  dir: string;
  files: string[];
  bytes: number;
  examples: number;
}

/** Share of candidate examples whose output differs from the reference's. */
export const CHANGED_SHARE = 0.3;

// -------------------------------------------------------------------------- randomness

/** A 32-bit integer hash (lowbias32): cheap, well mixed, the same on every platform. */
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

export function seedOf(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) h = mix(h ^ mix(p + 0x632be5ab));
  return h;
}

// -------------------------------------------------------------------------------- text

const VOCABULARY_SIZE = 4096;
const SYLLABLES = ['ka', 'lo', 'mi', 're', 'tu', 'san', 'vel', 'dor', 'pia', 'qua', 'xen', 'bri'];

/** Pseudo-words, so search terms have known, very different frequencies (see searchTerms). */
const vocabulary: string[] = Array.from({ length: VOCABULARY_SIZE }, (_, i) => {
  const next = mulberry32(seedOf(7, i));
  let word = '';
  const syllables = 1 + Math.floor(next() * 3);
  for (let s = 0; s < syllables; s++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
  return `${word}${i.toString(36)}`;
});

/**
 * Words are drawn with a cubic skew: the first is in most texts, the last in very few, as
 * with real language. The explorer's search cost depends on how many rows a term matches.
 */
function pickWord(next: () => number): string {
  const u = next();
  return vocabulary[Math.floor(VOCABULARY_SIZE * u * u * u)]!;
}

/** Terms for the explorer's search box: very common, common, rare, and absent. */
export const searchTerms = [vocabulary[0]!, vocabulary[40]!, vocabulary[4000]!, 'qqzzxxnever'];

/**
 * More words for timing searches one after another, each new to the explorer's cache: the
 * most common ones (in most texts) and rare ones (in a few hundred of a million).
 */
export const searchWords = {
  common: vocabulary.slice(1, 9),
  rare: vocabulary.slice(3900, 3908),
};

function text(seed: number, meanChars: number): string {
  const next = mulberry32(seed);
  const target = Math.round(meanChars * (0.5 + next()));
  const words: string[] = [];
  let length = 0;
  let sentence = 0;
  while (length < target) {
    let word = pickWord(next);
    if (sentence === 0) word = word[0]!.toUpperCase() + word.slice(1);
    sentence++;
    if (sentence >= 8 + Math.floor(next() * 10)) {
      word += '.';
      sentence = 0;
    }
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

// ------------------------------------------------------------------------------ records

interface Example {
  id: string;
  input: string;
  output: string;
  fields: { refused: boolean; score: number; length: number };
}

export function exampleId(i: number): string {
  return `ex-${String(i + 1).padStart(7, '0')}`;
}

export function runId(spec: LibrarySpec, experiment: number, run: number): string {
  return `${spec.name}-e${String(experiment).padStart(3, '0')}-r${String(run).padStart(2, '0')}`;
}

export function experimentId(spec: LibrarySpec, experiment: number): string {
  return `exp-${spec.name}-${String(experiment).padStart(3, '0')}`;
}

/**
 * One example of every run of an experiment at once: inputs are shared, each candidate keeps
 * the reference output for 70% of examples, and the metric fields follow the output, so a
 * changed output is the only way a metric changes (as with a deterministic grader).
 */
function exampleRow(spec: LibrarySpec, experiment: number, runs: number, i: number): Example[] {
  const input = text(seedOf(experiment, i, 1), spec.inputChars);
  const rows: Example[] = [];
  let reference: Example | null = null;
  for (let r = 0; r < runs; r++) {
    const changed = r > 0 && mulberry32(seedOf(experiment, i, r, 2))() < CHANGED_SHARE;
    if (reference && !changed) {
      rows.push({ ...reference });
      continue;
    }
    const outputSeed = seedOf(experiment, i, changed ? r : 0, 3);
    const output = text(outputSeed, spec.outputChars);
    const next = mulberry32(outputSeed ^ 0x5bd1e995);
    // Candidates refuse a little less and score a little higher: a real, small effect.
    const refused = next() < (r === 0 ? 0.25 : 0.2);
    const score = refused ? 1 : 1 + Math.min(4, Math.floor(next() * 5 + (r === 0 ? 0 : 0.3)));
    const row = {
      id: exampleId(i),
      input,
      output,
      fields: { refused, score, length: output.length },
    };
    rows.push(row);
    reference ??= row;
  }
  return rows;
}

function header(spec: LibrarySpec, experiment: number, run: number): string {
  const record = mechlensRecord({
    id: runId(spec, experiment, run),
    project: `bench-${spec.name}`,
    name: run === 0 ? 'reference' : `steer-${run}`,
    experiment: {
      id: experimentId(spec, experiment),
      role: run === 0 ? 'reference' : 'intervention',
    },
    condition: {
      expect: run === 0 ? null : { refusal_rate: 'decrease', mean_score: 'increase' },
      compare_to: [],
      series: null,
      level: null,
    },
    examples: [],
    extra: {
      metric_definitions: {
        refusal_rate: { example_field: 'refused', direction: 'lower_is_better' },
        mean_score: { example_field: 'score', direction: 'higher_is_better' },
        mean_length: { example_field: 'length', direction: null },
      },
      metrics: { refusal_rate: 0.25, mean_score: 3, mean_length: spec.outputChars },
    },
  });
  return JSON.stringify(record);
}

/** Buffered appends: one write per ~1 MB instead of one per example. */
class FileWriter {
  private readonly fd: number;
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;
  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
  }
  write(chunk: string): void {
    this.parts.push(chunk);
    this.pending += chunk.length;
    if (this.pending > 1 << 20) this.flush();
  }
  private flush(): void {
    const buffer = Buffer.from(this.parts.join(''));
    fs.writeSync(this.fd, buffer);
    this.bytes += buffer.length;
    this.parts = [];
    this.pending = 0;
  }
  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** Example rows between two progress reports: often enough for a live bar, cheap to check. */
const REPORT_EVERY = 256;

/** Writes `<dir>/.mechlens/runs/<run id>.json` for every run of the spec. */
export function generateLibrary(
  spec: LibrarySpec,
  root: string,
  log: (line: string) => void,
  onProgress: (progress: JobProgress) => void = () => undefined,
): GeneratedLibrary {
  const total = spec.experiments * spec.runsPerExperiment * spec.examples;
  const dir = path.join(root, spec.name);
  const runsDir = path.join(dir, '.mechlens', 'runs');
  fs.rmSync(markerOf(root, spec), { force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(runsDir, { recursive: true });
  const files: string[] = [];
  let bytes = 0;
  for (let e = 0; e < spec.experiments; e++) {
    const writers = Array.from({ length: spec.runsPerExperiment }, (_, r) => {
      const writer = new FileWriter(path.join(runsDir, `${runId(spec, e, r)}.json`));
      // The header ends with `"examples":[],…`: split it there and stream the list between.
      const [before, after] = header(spec, e, r).split('"examples":[]');
      writer.write(`${before}"examples":[\n`);
      return { writer, after: after! };
    });
    for (let i = 0; i < spec.examples; i++) {
      const rows = exampleRow(spec, e, spec.runsPerExperiment, i);
      const separator = i + 1 < spec.examples ? ',\n' : '\n';
      rows.forEach((row, r) => writers[r]!.writer.write(JSON.stringify(row) + separator));
      if (i % REPORT_EVERY === REPORT_EVERY - 1 || i + 1 === spec.examples) {
        const done = (e * spec.examples + i + 1) * spec.runsPerExperiment;
        onProgress({ phase: 'writing examples', done, total });
      }
    }
    for (const { writer, after } of writers) {
      writer.write(`]${after}\n`);
      writer.close();
      files.push(writer.file);
      bytes += writer.bytes;
    }
    if ((e + 1) % 10 === 0 || e + 1 === spec.experiments)
      log(`  generated ${e + 1}/${spec.experiments} experiments of ${spec.name}`);
  }
  return {
    spec,
    dir,
    files,
    bytes,
    examples: total,
  };
}

/** Beside the library, not in it: inside, the indexer would count it as a skipped source. */
function markerOf(root: string, spec: LibrarySpec): string {
  return path.join(root, `${spec.name}.spec.json`);
}

/** The spec's files if an earlier `--keep` run left them complete, else null. */
export function cachedLibrary(spec: LibrarySpec, root: string): GeneratedLibrary | null {
  const dir = path.join(root, spec.name);
  const marker = markerOf(root, spec);
  if (!fs.existsSync(marker) || fs.readFileSync(marker, 'utf8') !== JSON.stringify(spec))
    return null;
  const runsDir = path.join(dir, '.mechlens', 'runs');
  const files = fs
    .readdirSync(runsDir)
    .map((f) => path.join(runsDir, f))
    .sort();
  const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  return {
    spec,
    dir,
    files,
    bytes,
    examples: spec.experiments * spec.runsPerExperiment * spec.examples,
  };
}

export function libraryFor(
  spec: LibrarySpec,
  root: string,
  log: (line: string) => void,
  onProgress?: (progress: JobProgress) => void,
): GeneratedLibrary {
  const cached = cachedLibrary(spec, root);
  if (cached) {
    log(`  reusing ${spec.name} from ${cached.dir}`);
    return cached;
  }
  const library = generateLibrary(spec, root, log, onProgress);
  // Written last, so an interrupted generation is never mistaken for a complete one.
  fs.writeFileSync(markerOf(root, spec), JSON.stringify(spec));
  return library;
}
