import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importUnit, importerVersions } from '../../../electron/core/ingest/importers';
import {
  ImportProblem,
  type ImportOutcome,
  type SourceUnit,
} from '../../../electron/core/ingest/types';
import {
  examples,
  mechlensRecord,
  promptfooOutput,
  writeFile,
  writeGenericCsv,
  writeGenericJsonl,
  writeLmEval,
  writeMechlensRun,
  writePromptfoo,
} from '../../fixtures/formats';
import { tempDir } from '../../fixtures/tmp';
import { importContext, importProblem } from '../../fixtures/import';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const fileUnit = (file: string): SourceUnit => ({ path: file, kind: 'file', files: [file] });
const importFile = (file: string) => importUnit(fileUnit(file), importContext());

function imported(outcome: ImportOutcome) {
  if (outcome.status !== 'imported') throw new Error('expected an import');
  return outcome;
}

describe('importUnit', () => {
  it('lists a version for every importer it dispatches to', () => {
    expect(Object.keys(importerVersions).sort()).toEqual([
      'csv',
      'inspect',
      'jsonl',
      'lighteval',
      'lm-eval',
      'mechlens',
      'promptfoo',
      'reps',
    ]);
  });

  it('dispatches JSON by content', async () => {
    const mechlens = imported(await importFile(writeMechlensRun(dir)));
    expect(mechlens.importer).toBe('mechlens');
    expect(mechlens.runs[0]?.examples).toHaveLength(4);

    // A MechLens record outside .mechlens/runs is still found by its keys.
    const loose = writeFile(dir, 'exported/run.json', JSON.stringify(mechlensRecord()));
    expect(imported(await importFile(loose)).importer).toBe('mechlens');

    const promptfoo = imported(await importFile(writePromptfoo(dir)));
    expect(promptfoo.importer).toBe('promptfoo');
    expect(promptfoo.runs).toHaveLength(2);

    // An lm-eval results file renamed by --output_path is found by content as a plain file.
    const { results } = writeLmEval(dir, { samples: false });
    const renamed = path.join(dir, 'sw_mgsm_direct_0shot_2026-01-26T14-39-33.247121.json');
    fs.renameSync(results, renamed);
    expect(imported(await importFile(renamed)).importer).toBe('lm-eval');

    expect(
      await importFile(writeFile(dir, 'package.json', '{"name": "x", "version": "1.0.0"}')),
    ).toEqual({ status: 'skipped' });
  });

  it('imports an lm-eval unit with its samples, and judges a results_* file of another kind by content', async () => {
    const { results, samples } = writeLmEval(dir);
    const outcome = imported(
      await importUnit(
        { path: results, kind: 'lm-eval', files: [results, samples!] },
        importContext(),
      ),
    );
    expect(outcome.importer).toBe('lm-eval');
    expect(outcome.runs[0]?.examples).toHaveLength(3);

    const disguised = writeFile(
      dir,
      'results_2026-01-01T00-00-00.json',
      JSON.stringify(promptfooOutput()),
    );
    const other = imported(
      await importUnit({ path: disguised, kind: 'lm-eval', files: [disguised] }, importContext()),
    );
    expect(other.importer).toBe('promptfoo');
  });

  it('reports a truncated run file with its line and that it may still be being written', async () => {
    const text = JSON.stringify(mechlensRecord(), null, 2);
    const file = writeFile(dir, '.mechlens/runs/run-0001.json', text.slice(0, text.length / 2));
    const problem = await importProblem(importFile(file));
    expect(problem.message).toMatch(
      /^line \d+, column \d+: unexpected end of JSON — the file may still be being written$/,
    );
  });

  it('reports unparseable JSON only when it looks like a run file', async () => {
    expect(await importFile(writeFile(dir, 'notes.json', '{"broken": '))).toEqual({
      status: 'skipped',
    });
    await importProblem(importFile(writeFile(dir, 'output.json', '{"broken": ')));
    const telltale = await importProblem(
      importFile(writeFile(dir, 'mine.json', '{"evalId": "e", "results": {"version": 3,')),
    );
    expect(telltale.message).toMatch(/may still be being written/);
  });

  it('reports binary data and empty files that carry a run-file name', async () => {
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d);
    const binary = await importProblem(
      importFile(writeFile(dir, 'results_2026-01-01T00-00-00.json', png)),
    );
    expect(binary.message).toBe('binary data, not a text run file');
    expect(await importFile(writeFile(dir, 'picture.json', png))).toEqual({ status: 'skipped' });
    const empty = await importProblem(importFile(writeFile(dir, '.mechlens/runs/x.json', '')));
    expect(empty.message).toBe('the file is empty');
  });

  it('reports NaN in a run record with its line', async () => {
    const text = JSON.stringify(mechlensRecord(), null, 2).replace(
      '"refusal_rate": 0.5',
      '"refusal_rate": NaN',
    );
    const problem = await importProblem(
      importFile(writeFile(dir, '.mechlens/runs/nan.json', text)),
    );
    expect(problem.message).toMatch(
      /^NaN is not valid JSON \(line \d+\); the producer wrote a non-finite number$/,
    );
  });

  it('reads NaN and Infinity from lm-eval and counts them in one warning per run', async () => {
    const { results, samples } = writeLmEval(dir, { filters: ['none'] });
    const text = fs.readFileSync(results, 'utf8');
    fs.writeFileSync(
      results,
      text
        .replace(/"exact_match,none": [\d.]+/, '"exact_match,none": Infinity')
        .replace('"exact_match_stderr,none": 0.1', '"exact_match_stderr,none": NaN'),
    );
    const lines = fs.readFileSync(samples!, 'utf8').trim().split('\n');
    lines[0] = lines[0]!.replace('"exact_match":1', '"exact_match":1e309');
    fs.writeFileSync(samples!, lines.join('\n'));
    const unit: SourceUnit = { path: results, kind: 'lm-eval', files: [results, samples!] };
    const outcome = await importUnit(unit, importContext());
    if (outcome.status !== 'imported') throw new Error('not imported');
    expect(outcome.runs[0]!.warnings).toEqual([
      '3 non-finite values (NaN/Infinity) read as missing',
    ]);
  });

  it('counts an overflowing literal (1e309) in a warning in every format, never silently', async () => {
    const file = writeFile(
      dir,
      'overflow/run.jsonl',
      '{"id": "a", "input": "q", "output": "x", "score": 1e309}\n{"id": "b", "input": "q", "output": "y", "score": 2}\n',
    );
    const outcome = await importUnit({ path: file, kind: 'file', files: [file] }, importContext());
    if (outcome.status !== 'imported') throw new Error('not imported');
    expect(outcome.runs[0]!.warnings).toContain(
      '1 non-finite value (NaN/Infinity) read as missing',
    );
  });

  it('imports lm-eval samples that have no results file', async () => {
    const { samples } = writeLmEval(dir);
    const outcome = await importUnit(
      { path: samples!, kind: 'lm-eval', files: [samples!] },
      importContext(),
    );
    expect(outcome).toMatchObject({ status: 'imported', importer: 'lm-eval' });
  });

  it('rejects absurdly deep nesting in a run file', async () => {
    const file = writeFile(
      dir,
      '.mechlens/runs/deep.json',
      '['.repeat(100_000) + ']'.repeat(100_000),
    );
    expect((await importProblem(importFile(file))).message).toBe(
      'nested more than 512 levels deep',
    );
  });

  it('tags problems with the importer that raised them', async () => {
    const list = examples(3);
    list[2]!.id = list[0]!.id;
    const problem = await importProblem(importFile(writeMechlensRun(dir, { examples: list })));
    expect(problem.importer).toBe('mechlens');
    expect(problem.message).toBe('duplicate example id "ex-001" (examples 1 and 3)');
  });

  it('imports an example with a 50 MB output', async () => {
    const list = examples(2);
    list[1]!.output = 'z'.repeat(50 * 1024 * 1024);
    const outcome = imported(await importFile(writeMechlensRun(dir, { examples: list })));
    expect(outcome.runs[0]?.examples[1]?.output.length).toBe(50 * 1024 * 1024);
  });

  it('sends .jsonl and .csv to the generic importers only when the first line fits', async () => {
    const jsonl = writeGenericJsonl(dir, 'a.jsonl', [{ id: 'a', output: 'x' }]);
    expect(imported(await importFile(jsonl)).importer).toBe('jsonl');
    const csv = writeGenericCsv(dir, 'b.csv', '\ufeffid,input,output\n1,q,a\n');
    expect(imported(await importFile(csv)).importer).toBe('csv');
    expect(await importFile(writeFile(dir, 'c.jsonl', '{"doc_id": 0}\n'))).toEqual({
      status: 'skipped',
    });
    expect(await importFile(writeFile(dir, 'd.csv', 'record_id,input\n1,x\n'))).toEqual({
      status: 'skipped',
    });
    expect(await importFile(writeFile(dir, 'e.eval', 'not a zip'))).toEqual({ status: 'skipped' });
    expect(await importFile(writeFile(dir, 'f.txt', 'hello'))).toEqual({ status: 'skipped' });
  });
});

describe('importUnit on arbitrary JSON', () => {
  const anyJson = fc.jsonValue({ maxDepth: 4 });
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyJson);
  const exampleLike = fc.record(
    {
      id: maybe(fc.string()),
      input: maybe(fc.string()),
      output: maybe(fc.string()),
      fields: anyJson,
    },
    { requiredKeys: [] },
  );
  const mechlensLike = fc.record(
    {
      id: anyJson,
      project: maybe(fc.string()),
      name: maybe(fc.string()),
      model: maybe(fc.record({ id: fc.string() })),
      examples: maybe(fc.array(maybe(exampleLike), { maxLength: 5 })),
      experiment: maybe(
        fc.record({ id: anyJson, role: anyJson, declaration: anyJson }, { requiredKeys: [] }),
      ),
      condition: maybe(
        fc.record(
          { expect: anyJson, compare_to: anyJson, series: anyJson, level: anyJson },
          { requiredKeys: [] },
        ),
      ),
      metric_definitions: maybe(fc.dictionary(fc.string(), anyJson)),
      metrics: anyJson,
      sdk: anyJson,
      started_at: anyJson,
    },
    { requiredKeys: ['project', 'name', 'model', 'examples'] },
  );
  const resultLike = fc.record(
    {
      promptIdx: anyJson,
      provider: anyJson,
      testCase: anyJson,
      vars: anyJson,
      prompt: anyJson,
      response: anyJson,
      success: anyJson,
      score: anyJson,
      namedScores: anyJson,
      gradingResult: anyJson,
      failureReason: anyJson,
    },
    { requiredKeys: ['promptIdx'] },
  );
  const promptfooLike = fc.record({
    evalId: anyJson,
    results: fc.record(
      {
        version: fc.constantFrom(2, 3),
        results: fc.array(maybe(resultLike), { maxLength: 5 }),
        prompts: anyJson,
        table: anyJson,
        timestamp: anyJson,
      },
      { requiredKeys: ['version', 'results'] },
    ),
    config: anyJson,
    metadata: anyJson,
  });
  const lmEvalLike = fc.record(
    {
      results: fc.dictionary(fc.string(), fc.dictionary(fc.string(), anyJson)),
      versions: fc.dictionary(fc.string(), anyJson),
      configs: anyJson,
      config: anyJson,
      group_subtasks: anyJson,
      higher_is_better: anyJson,
      'n-samples': anyJson,
      date: anyJson,
      total_evaluation_time_seconds: anyJson,
      model_name: anyJson,
      model_name_sanitized: anyJson,
    },
    { requiredKeys: ['results', 'versions'] },
  );

  /** Only ImportProblem may escape, and never the dispatcher's "a bug in Pairwise" kind. */
  async function onlyProblems(value: unknown, relative: string): Promise<void> {
    const file = writeFile(dir, relative, JSON.stringify(value));
    try {
      await importFile(file);
    } catch (error) {
      expect(error).toBeInstanceOf(ImportProblem);
      expect((error as Error).message).not.toMatch(/unexpected error/);
    }
  }

  it.each([
    ['any JSON', anyJson, 'x.json'],
    ['any JSON under .mechlens/runs', anyJson, '.mechlens/runs/x.json'],
    ['MechLens-like records', mechlensLike, '.mechlens/runs/y.json'],
    ['promptfoo-like outputs', promptfooLike, 'output.json'],
    ['lm-eval-like results', lmEvalLike, 'results_2026-01-01T00-00-00.json'],
  ] as const)(
    'never throws anything but ImportProblem for %s',
    async (_name, arbitrary, relative) => {
      await fc.assert(
        fc.asyncProperty(arbitrary as fc.Arbitrary<unknown>, (value) =>
          onlyProblems(value, relative),
        ),
        { numRuns: 150 },
      );
    },
  );

  it('never throws anything but ImportProblem for arbitrary lm-eval samples lines', async () => {
    const sampleLike = fc.record(
      {
        doc_id: maybe(fc.nat()),
        filter: anyJson,
        arguments: anyJson,
        resps: anyJson,
        filtered_resps: maybe(
          fc.array(maybe(fc.tuple(fc.double(), fc.boolean())), { maxLength: 4 }),
        ),
        target: anyJson,
        metrics: maybe(fc.array(fc.string(), { maxLength: 3 })),
        exact_match: anyJson,
      },
      { requiredKeys: [] },
    );
    const { results, samples } = writeLmEval(dir);
    const unit: SourceUnit = { path: results, kind: 'lm-eval', files: [results, samples!] };
    await fc.assert(
      fc.asyncProperty(fc.array(maybe(sampleLike), { maxLength: 6 }), async (lines) => {
        fs.writeFileSync(samples!, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
        try {
          await importUnit(unit, importContext());
        } catch (error) {
          expect(error).toBeInstanceOf(ImportProblem);
          expect((error as Error).message).not.toMatch(/unexpected error/);
        }
      }),
      { numRuns: 150 },
    );
  });
});
