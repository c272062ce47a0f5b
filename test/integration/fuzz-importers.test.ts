import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/core/db/open';
import { importUnitFile } from '../../electron/core/ingest/import-task';
import { importerVersions } from '../../electron/core/ingest/importers';
import { IndexStore } from '../../electron/core/ingest/store';
import { JobManager } from '../../electron/core/jobs/manager';
import { SearchIndexer } from '../../electron/core/search/indexer';
import type { SourceUnit } from '../../electron/core/ingest/types';
import { fuzzRuns, fuzzSeed, fuzzTimeout } from '../fixtures/fuzz';
import { evalHeader, evalSample, zipBytes, type ZipEntry } from '../fixtures/inspect';
import { tempDir } from '../fixtures/tmp';
import { storedExampleCount, storedExamples } from '../fixtures/stored-examples';

/**
 * Issue 7, property-based: random bytes and random JSON, written under every name a run file
 * can have, go through the index worker's whole path (read, parse, limits, prepare) and the
 * writer into a real SQLite file. Nothing may crash, nothing may be reported as a Pairwise
 * bug, and the database must stay sound.
 */

const RUNS = fuzzRuns(80);
const DATE = '2026-01-01T00-00-00';

let dir: string;
let cleanup: () => void;
let db: Db;
let store: IndexStore;
let case_ = 0;
const outcomes = { imported: 0, failed: 0, skipped: 0 };

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  db = openDatabase(path.join(dir, 'fuzz.db'));
  store = new IndexStore(db);
});
afterAll(() => {
  db.close();
  cleanup();
  console.info(`importer fuzz outcomes: ${JSON.stringify(outcomes)}`);
});

type Content = string | Uint8Array;
/** Files of one unit, relative to the unit's own folder; the first names the unit. */
type Layout = (files: Content[]) => { files: [string, Content][]; kind: SourceUnit['kind'] };

const single =
  (name: string): Layout =>
  ([content]) => ({ files: [[name, content!]], kind: 'file' });

const LAYOUTS: Record<string, { layout: Layout; parts: number }> = {
  mechlens: { layout: single('.mechlens/runs/x.json'), parts: 1 },
  promptfoo: { layout: single('output.json'), parts: 1 },
  'inspect .eval': { layout: single('x.eval'), parts: 1 },
  'inspect .json': { layout: single(`${DATE}_task_abc.json`), parts: 1 },
  jsonl: { layout: single('x.jsonl'), parts: 1 },
  csv: { layout: single('x.csv'), parts: 1 },
  'jsonl + sidecar': {
    layout: ([data, sidecar]) => ({
      files: [
        ['x.jsonl', data!],
        ['pairwise.json', sidecar!],
      ],
      kind: 'file',
    }),
    parts: 2,
  },
  'lm-eval': {
    layout: ([results, samples]) => ({
      files: [
        [`results_${DATE}.json`, results!],
        [`samples_task_${DATE}.jsonl`, samples!],
      ],
      kind: 'lm-eval',
    }),
    parts: 2,
  },
  reps: {
    layout: ([card, events]) => ({
      files: [
        ['run.json', card!],
        ['events.jsonl', events!],
      ],
      kind: 'reps-run',
    }),
    parts: 2,
  },
};

// ------------------------------------------------------------------------------ arbitraries

const json = fc.jsonValue({ maxDepth: 4 });
/** Any UTF-16 code unit: NUL, controls, and lone surrogates, which JSON can carry as \ud800. */
const codeUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
);
const text = fc.string({ unit: codeUnit, maxLength: 40 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, json);
const bytes = fc.uint8Array({ maxLength: 2048 });
const exampleLike = fc.record(
  { id: maybe(text), input: maybe(text), output: maybe(text), fields: json },
  { requiredKeys: [] },
);
/** Examples an importer should accept: unique non-empty ids, text input and output. */
const goodExamples = fc.uniqueArray(
  fc.record({
    id: text.filter((t) => t.trim() !== ''),
    input: text,
    output: text,
    fields: fc.dictionary(text, json, { maxKeys: 3 }),
  }),
  { selector: (e) => e.id, maxLength: 6 },
);
const line = fc.oneof(exampleLike, json).map((value) => JSON.stringify(value));
const goodJsonLines = goodExamples.map((list) =>
  list.map(({ fields, ...e }) => JSON.stringify({ ...fields, ...e })).join('\n'),
);
const jsonLines = fc
  .array(fc.oneof({ weight: 5, arbitrary: line }, { weight: 1, arbitrary: text }), {
    maxLength: 8,
  })
  .map((lines) => lines.join('\n'));
const csvCell = fc.oneof(
  text,
  text.map((t) => `"${t.replace(/"/g, '""')}"`),
  fc.constantFrom('=1+1', '"', '""', '\r', '\n', '', '1e400', '9007199254740993'),
);
const csv = fc
  .tuple(
    fc.constantFrom('id,input,output', 'id,output,score', 'ID, Input ,x', 'id,id,input', 'id'),
    fc.array(fc.array(csvCell, { maxLength: 5 }), { maxLength: 6 }),
  )
  .map(([header, rows]) => [header, ...rows.map((r) => r.join(','))].join('\r\n'));
const mechlensLike = fc
  .record(
    {
      id: maybe(text),
      project: maybe(text),
      name: maybe(text),
      model: maybe(fc.record({ id: text })),
      examples: maybe(fc.array(maybe(exampleLike), { maxLength: 5 })),
      experiment: json,
      condition: json,
      metric_definitions: json,
      metrics: json,
    },
    { requiredKeys: ['project', 'name', 'model', 'examples'] },
  )
  .map((value) => JSON.stringify(value));
const goodMechlens = fc
  .record({ name: text.filter((t) => t !== ''), examples: goodExamples, metrics: json })
  .map((v) => JSON.stringify({ project: 'fuzz', model: { id: 'm' }, ...v }));
const zipEntry: fc.Arbitrary<ZipEntry> = fc.record({
  name: fc.oneof(
    fc.constantFrom(
      'header.json',
      '_journal/start.json',
      'summaries.json',
      'start.json',
      'results.json',
      'samples/1_epoch_1.json',
      'samples/x_epoch_1/sample.json',
      'samples/x_epoch_1/messages/0.json',
      'samples/x_epoch_1/attachments/0.json',
      '_journal/summaries/1.json',
    ),
    text,
  ),
  data: fc.oneof(
    json.map((v) => JSON.stringify(v)),
    fc.constant(JSON.stringify(evalHeader())),
    fc.constant(JSON.stringify(evalSample({ id: 1 }))),
    bytes.map((b) => Buffer.from(b)),
  ),
  method: fc.constantFrom('deflate' as const, 'store' as const),
  declaredSize: fc.option(fc.nat({ max: 1 << 20 }), { nil: undefined }),
  corrupt: fc.boolean(),
});
const zip = fc.array(zipEntry, { maxLength: 5 }).map((entries) => zipBytes(entries));
const mutatedZip = fc
  .tuple(zip, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }))
  .map(([archive, edits]) => {
    const copy = Buffer.from(archive);
    for (const [at, value] of edits) if (copy.length > 0) copy[at % copy.length] = value;
    return copy;
  });

const anyContent: fc.Arbitrary<Content> = fc.oneof(
  bytes,
  json.map((v) => JSON.stringify(v)),
  text,
  jsonLines,
  csv,
  mechlensLike,
  zip,
  mutatedZip,
);

// ---------------------------------------------------------------------------------- property

/** Writes one unit, runs it as an index worker would, and stores the result as the writer would. */
async function indexOnce(layout: Layout, contents: Content[]): Promise<void> {
  const unitDir = path.join(dir, `case-${++case_}`);
  const { files, kind } = layout(contents);
  const paths = files.map(([name, content]) => {
    const file = path.join(unitDir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  });
  const unit: SourceUnit = {
    path: kind === 'reps-run' ? unitDir : paths[0]!,
    kind,
    // A sidecar is part of its data file's unit, as the scanner groups them.
    files: paths,
  };
  const result = await importUnitFile({ unit }, new AbortController().signal);
  outcomes[result.status]++;
  const record = {
    path: unit.path,
    folder: dir,
    stat: result.stat,
    sha256: result.status === 'skipped' ? null : result.sha256,
    importer: result.status === 'skipped' ? null : result.importer,
    importerVersion:
      result.status !== 'skipped' && result.importer ? importerVersions[result.importer]! : null,
  };
  if (result.status === 'failed') {
    expect(result.message).not.toMatch(/unexpected error|a bug in Pairwise|could not be read: /);
    store.writeFailed(record, result.message);
  } else if (result.status === 'imported') {
    // Through structured clone, as the worker's answer reaches the writer.
    const copy = structuredClone(result);
    const written = store.writeImported(record, copy.runs, copy.prepared);
    // What was stored reads back the same, so every example can be found again by its id. A run
    // id an earlier fuzzed file already gave is refused whole (no silent replacement).
    for (const run of written.taken.length === 0 ? result.runs : []) {
      const stored = storedExamples(db, run.runId).map((r) => [r.example_id, r.input, r.output]);
      const sent = run.examples.map((e) => [e.id, e.input, e.output]);
      const byId = (a: string[], b: string[]) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0);
      expect(stored.sort(byId)).toEqual(sent.sort(byId));
    }
  } else {
    store.writeSkipped(record);
  }
  fs.rmSync(unitDir, { recursive: true, force: true });
}

const formatContent: Record<string, fc.Arbitrary<Content>[]> = {
  mechlens: [fc.oneof(mechlensLike, goodMechlens)],
  jsonl: [fc.oneof(jsonLines, goodJsonLines)],
  csv: [csv],
  'jsonl + sidecar': [
    fc.oneof(jsonLines, goodJsonLines),
    fc.oneof(
      json.map((v) => JSON.stringify(v)),
      fc
        .record({ condition: text, role: text, metrics: json }, { requiredKeys: [] })
        .map((v) => JSON.stringify(v)),
    ),
  ],
  'inspect .eval': [fc.oneof(zip, mutatedZip)],
  reps: [json.map((v) => JSON.stringify(v)), jsonLines],
  'lm-eval': [
    fc
      .record({ results: fc.dictionary(fc.constant('task'), json), versions: json, config: json })
      .map((v) => JSON.stringify(v)),
    jsonLines,
  ],
};

describe('importer fuzzing: random content under every run-file name', () => {
  it.each(Object.entries(LAYOUTS))(
    '%s: never crashes, never a Pairwise bug, and the database stays sound',
    async (name, { layout, parts }) => {
      const shaped = formatContent[name];
      const contents = fc.tuple(
        ...Array.from({ length: parts }, (_, i) =>
          shaped?.[i] ? fc.oneof(shaped[i]!, anyContent) : anyContent,
        ),
      );
      await fc.assert(
        fc.asyncProperty(contents, (c) => indexOnce(layout, c)),
        { numRuns: RUNS, seed: fuzzSeed() },
      );
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      // Search is filled after indexing: once it is, it holds every example and nothing else.
      const jobs = new JobManager(db, { started() {}, progress() {}, finished() {} });
      const indexer = new SearchIndexer(db, jobs);
      await indexer.idle();
      await indexer.close();
      expect(count(`SELECT COUNT(*) AS n FROM examples_fts`)).toBe(storedExampleCount(db));
      expect(count(`SELECT COUNT(*) AS n FROM run_search WHERE ready = 0`)).toBe(0);
      expect(count(`SELECT COUNT(DISTINCT run_rowid) AS n FROM run_columns`)).toBe(
        count(`SELECT COUNT(*) AS n FROM runs`),
      );
    },
    fuzzTimeout(RUNS, 100),
  );
});
