import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLmEval, isLmEvalResults } from '../../../electron/core/ingest/importers/lmeval';
import {
  resultsDateId,
  samplesFileTask,
} from '../../../electron/core/ingest/importers/lmeval-files';
import type { SourceUnit } from '../../../electron/core/ingest/types';
import { writeFile, writeLmEval } from '../../fixtures/formats';
import { tempDir } from '../../fixtures/tmp';
import { importContext, importProblemMessage } from '../../fixtures/import';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const unitOf = (...files: string[]): SourceUnit => ({ path: files[0]!, kind: 'lm-eval', files });
interface ResultsDoc {
  results: Record<string, unknown>;
  group_subtasks: Record<string, unknown>;
  config: Record<string, unknown>;
  model_name?: string;
}
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as ResultsDoc;

/** Rewrites the fixture's task config to another lm-eval output_type. */
function setOutputType(results: string, type: string): void {
  const doc = readJson(results) as ResultsDoc & {
    configs: Record<string, Record<string, unknown>>;
  };
  doc.configs.arith!.output_type = type;
  fs.writeFileSync(results, JSON.stringify(doc));
}

describe('names and detection', () => {
  it('reads date ids and tasks from lm-eval file names', () => {
    expect(resultsDateId('results_2026-09-18T09-12-44.118273.json')).toBe(
      '2026-09-18T09-12-44.118273',
    );
    expect(resultsDateId('sw_mgsm_direct_0shot_2026-01-26T14-39-33.247121.json')).toBe(
      '2026-01-26T14-39-33.247121',
    );
    expect(resultsDateId('results.json')).toBeNull();
    expect(
      samplesFileTask('samples_mmlu_abstract_algebra_2025-01-21T00-40-03.356274.jsonl'),
    ).toEqual({
      task: 'mmlu_abstract_algebra',
      dateId: '2025-01-21T00-40-03.356274',
    });
  });

  it('recognises results by their results and versions objects', () => {
    expect(isLmEvalResults({ results: { t: { 'acc,none': 1 } }, versions: { t: 1 } })).toBe(true);
    expect(isLmEvalResults({ results: { t: 1 }, versions: {} })).toBe(false);
    expect(isLmEvalResults({ results: [], versions: {} })).toBe(false);
  });
});

describe('importLmEval', () => {
  it('makes one run per task with one example per document', async () => {
    const { results, samples } = writeLmEval(path.join(dir, 'out'), { model: 'org/model-a' });
    const [run, ...rest] = await importLmEval(unitOf(results, samples!), importContext());
    expect(rest).toEqual([]);
    expect(run).toMatchObject({
      format: 'lm-eval',
      formatVersion: '0.4.10',
      project: 'out',
      experiment: { id: 'lm-eval:arith@1', name: 'arith' },
      condition: { name: 'org/model-a', role: null },
      codeCommit: 'abc1234',
      startedAt: '2026-09-19T14:00:00.500Z',
      finishedAt: '2026-09-19T14:00:13.000Z',
      seed: 0,
      metrics: { 'exact_match,strict-match': 1 / 3, 'exact_match,flexible-extract': 2 / 3 },
      warnings: [],
    });
    expect(run!.runId).toMatch(/^lm-eval-[0-9a-f]{24}$/);
    expect(run!.settings.config).toMatchObject({
      model_args: { pretrained: 'org/model-a', dtype: 'bfloat16' },
      num_fewshot: 0,
    });
    expect(run!.settings.dataset).toEqual({ id: 'org/arith', name: 'main', split: 'test' });
    expect(run!.metricDefinitions['exact_match,strict-match']).toEqual({
      description: 'exact_match after the "strict-match" filter',
      example_field: 'exact_match,strict-match',
      direction: 'higher_is_better',
    });
    expect(run!.metricDefinitions['exact_match_stderr,strict-match']).toBeUndefined();
    expect(run!.examples.map((e) => e.id)).toEqual(['0', '1', '2']);
    expect(run!.examples[1]).toEqual({
      id: '1',
      input: 'Q: Question 1?\nA:',
      output: 'It is 42',
      fields: {
        'exact_match,strict-match': 0,
        'response,strict-match': '[invalid]',
        'exact_match,flexible-extract': 1,
        'response,flexible-extract': '42',
      },
      target: '42',
      error: null,
    });
  });

  it('imports a results file without samples as metrics only, with a warning', async () => {
    const { results } = writeLmEval(dir, { samples: false });
    const [run] = await importLmEval(unitOf(results), importContext());
    expect(run!.examples).toEqual([]);
    expect(run!.metricDefinitions['exact_match,strict-match']?.example_field).toBeNull();
    expect(run!.warnings[0]).toMatch(/^no samples_arith_\*\.jsonl beside the results/);
  });

  it('answers multiple-choice documents with the likeliest choice', async () => {
    const { results } = writeLmEval(dir, { samples: false, filters: ['none'] });
    setOutputType(results, 'multiple_choice');
    const line = {
      doc_id: 0,
      target: 2,
      arguments: [
        ['Q?\nAnswer:', ' A'],
        ['Q?\nAnswer:', ' B'],
        ['Q?\nAnswer:', ' C'],
      ],
      resps: [[['-3.2', 'False']], [['-1.5', 'False']], [['-0.4', 'True']]],
      filtered_resps: [
        ['-3.2', 'False'],
        ['-1.5', 'False'],
        ['-0.4', 'True'],
      ],
      filter: 'none',
      metrics: ['acc'],
      acc: 1.0,
    };
    const samples = writeFile(
      path.dirname(results),
      `samples_arith_2026-09-18T09-12-44.118273.jsonl`,
      JSON.stringify(line) + '\n',
    );
    const [run] = await importLmEval(unitOf(results, samples), importContext());
    expect(run!.examples[0]).toEqual({
      id: '0',
      input: 'Q?\nAnswer:',
      output: 'C',
      target: '2',
      fields: {
        'acc,none': 1,
        choice_loglikelihoods: [-3.2, -1.5, -0.4],
        choice_is_greedy: [false, false, true],
      },
      error: null,
    });
  });

  /** One multiple-choice samples line; `lls` are written as lm-eval writes them, as text. */
  const choiceLine = (docId: number, lls: string[], choices: string[], extra = {}) => ({
    doc_id: docId,
    target: 0,
    arguments: Object.fromEntries(
      choices.map((c, i) => [`gen_args_${i}`, { arg_0: 'Q?\nAnswer:', arg_1: ` ${c}` }]),
    ),
    resps: lls.map((ll) => [[ll, 'False']]),
    filtered_resps: lls.map((ll) => [ll, 'False']),
    filter: 'none',
    metrics: ['acc'],
    acc: 0,
    ...extra,
  });

  it('answers a length-normalised pick too when the task reports acc_norm', async () => {
    const { results } = writeLmEval(dir, { samples: false, filters: ['none'] });
    setOutputType(results, 'multiple_choice');
    // Per character, "a much longer answer" (-4 / 20) beats "short" (-3 / 5).
    const line = choiceLine(0, ['-3', '-4'], ['short', 'a much longer answer'], {
      metrics: ['acc', 'acc_norm'],
      acc_norm: 1,
    });
    const samples = writeFile(
      path.dirname(results),
      'samples_arith_2026-09-18T09-12-44.118273.jsonl',
      JSON.stringify(line) + '\n',
    );
    const [run] = await importLmEval(unitOf(results, samples), importContext());
    expect(run!.examples[0]!.output).toBe('short');
    expect(run!.examples[0]!.fields.answer_norm).toBe('a much longer answer');
  });

  it('gives equal outputs to runs whose log-likelihoods differ only in the last digits', async () => {
    const outputs: string[][] = [];
    for (const [i, lls] of [
      ['-1.2345678901234567', '-0.5000000000000001'],
      ['-1.2345678901234512', '-0.5000000000000049'],
    ].entries()) {
      const { results } = writeLmEval(path.join(dir, `batch-${i}`), { samples: false });
      setOutputType(results, 'multiple_choice');
      const samples = writeFile(
        path.dirname(results),
        'samples_arith_2026-09-18T09-12-44.118273.jsonl',
        JSON.stringify(choiceLine(0, lls, ['A', 'B'])) + '\n',
      );
      const [run] = await importLmEval(unitOf(results, samples), importContext());
      expect(run!.experiment!.id).toBe('lm-eval:arith@1');
      outputs.push(run!.examples.map((e) => e.output));
    }
    expect(outputs[0]).toEqual(['B']);
    expect(outputs[1]).toEqual(outputs[0]);
  });

  it('answers a single loglikelihood request with its continuation, marked when not greedy', async () => {
    const { results } = writeLmEval(dir, { samples: false });
    setOutputType(results, 'loglikelihood');
    const line = (docId: number, greedy: string) => ({
      doc_id: docId,
      target: '9',
      arguments: { gen_args_0: { arg_0: 'Q?\nA:', arg_1: '9' } },
      resps: [[['-0.01', greedy]]],
      filtered_resps: [['-0.01', greedy]],
      acc: greedy === 'True' ? 1 : 0,
    });
    const samples = writeFile(
      path.dirname(results),
      'samples_arith_2026-09-18T09-12-44.118273.jsonl',
      [line(0, 'True'), line(1, 'False')].map((l) => JSON.stringify(l)).join('\n'),
    );
    const [run] = await importLmEval(unitOf(results, samples), importContext());
    expect(run!.examples.map((e) => e.output)).toEqual(['9', 'not greedy: 9']);
    expect(run!.examples[1]!.fields).toEqual({
      'acc,none': 0,
      choice_loglikelihoods: [-0.01],
      choice_is_greedy: [false],
    });
  });

  it('keeps a half-written last samples line as a warning and fails on a bad middle line', async () => {
    const { results, samples } = writeLmEval(dir);
    fs.appendFileSync(samples!, '{"doc_id": 3, "filter": "strict-');
    const [run] = await importLmEval(unitOf(results, samples!), importContext());
    expect(run!.examples).toHaveLength(3);
    expect(run!.warnings.join('\n')).toMatch(
      /^samples_arith_.*\.jsonl: line 7, the last line, was skipped/,
    );

    const lines = fs.readFileSync(samples!, 'utf8').split('\n');
    lines[2] = '{"doc_id": [}';
    fs.writeFileSync(samples!, lines.join('\n'));
    expect(
      await importProblemMessage(importLmEval(unitOf(results, samples!), importContext())),
    ).toBe(`${path.basename(samples!)}: line 3, column 13: unexpected '}'`);
  });

  it('names the samples file and line of a document id of the wrong type', async () => {
    const { results, samples } = writeLmEval(dir);
    fs.writeFileSync(samples!, '{"doc_id": {"x": 1}, "filter": "none"}\n{"doc_id": 1}\n');
    expect(
      await importProblemMessage(importLmEval(unitOf(results, samples!), importContext())),
    ).toBe(
      `${path.basename(samples!)}: line 1: "doc_id" should be an integer, but it is an object`,
    );
  });

  it('warns about samples files for tasks the results do not have', async () => {
    const { results } = writeLmEval(dir, { samples: false });
    const stray = writeFile(
      path.dirname(results),
      'samples_other_2026-09-18T09-12-44.118273.jsonl',
      '{}\n',
    );
    const [run] = await importLmEval(unitOf(results, stray), importContext());
    expect(run!.warnings[0]).toMatch(/^samples_other_.*names no task in this results file/);
  });

  it('handles several tasks, groups, and a model_args dict as Python callers write it', async () => {
    const { results } = writeLmEval(dir, { samples: false });
    const doc = readJson(results);
    doc.results.group = { alias: 'group', 'exact_match,none': 0.5 };
    doc.group_subtasks.group = ['arith'];
    doc.config.model_args = { pretrained: 'org/model-a', dtype: 'bfloat16' };
    delete doc.model_name;
    fs.writeFileSync(results, JSON.stringify(doc));
    const runs = await importLmEval(unitOf(results), importContext());
    expect(runs.map((r) => r.experiment?.name)).toEqual(['arith', 'group']);
    expect(runs[1]!.warnings).toEqual([]);
    expect(runs[1]!.provenance.subtasks).toEqual(['arith']);
    expect(runs[0]!.condition.name).toBe('org/model-a');
  });

  it('reads samples written as JSON Lines under a .json name', async () => {
    const { results, samples } = writeLmEval(dir, { layout: 'samples-json' });
    expect(samples).toMatch(/\.json$/);
    const [run] = await importLmEval(unitOf(results, samples!), importContext());
    expect(run!.examples).toHaveLength(3);
    expect(run!.warnings).toEqual([]);
  });

  it('reads the 0.4.0–0.4.2 layout and takes an API model id from model_args', async () => {
    const { results, samples } = writeLmEval(dir, {
      layout: '0.4.0',
      modelType: 'openai-chat-completions',
      modelArgs: 'model=gpt-3.5-turbo-0125',
    });
    expect(path.basename(samples!)).toBe('model__gpt-3.5-turbo-0125_arith.jsonl');
    const [run] = await importLmEval(unitOf(results, samples!), importContext());
    expect(run!.condition.name).toBe('gpt-3.5-turbo-0125');
    expect(run!.settings.model).toMatchObject({
      id: 'gpt-3.5-turbo-0125',
      type: 'openai-chat-completions',
    });
    expect(run!.examples).toHaveLength(3);
    expect(run!.examples[1]!.output).toBe('It is 42');
  });

  it('records every setting that can tell two runs of a task apart', async () => {
    const { results, samples } = writeLmEval(dir);
    const doc = readJson(results) as ResultsDoc & Record<string, unknown>;
    Object.assign(doc.config, { limit: 50, gen_kwargs: 'temperature=0.7' });
    Object.assign(doc, { chat_template_sha: 'c0ffee', system_instruction: 'Be terse.' });
    fs.writeFileSync(results, JSON.stringify(doc));
    const [run] = await importLmEval(unitOf(results, samples!), importContext());
    expect(run!.settings.config).toMatchObject({
      model_args: { pretrained: 'org/model-a', dtype: 'bfloat16' },
      batch_size: '8',
      limit: 50,
      num_fewshot: 0,
      task_version: 1,
      output_type: 'generate_until',
      lm_eval_version: '0.4.10',
      chat_template_sha: 'c0ffee',
      system_instruction: 'Be terse.',
    });
    expect(run!.settings.generation).toEqual({
      until: ['Q:'],
      do_sample: false,
      temperature: '0.7',
    });
    expect(run!.codeCommit).toBe('abc1234');
  });

  it('imports samples without a results file as a run of its own, with a warning', async () => {
    const { samples } = writeLmEval(dir);
    const orphan: SourceUnit = { path: samples!, kind: 'lm-eval', files: [samples!] };
    const [run, ...rest] = await importLmEval(orphan, importContext());
    expect(rest).toEqual([]);
    expect(run).toMatchObject({
      experiment: { id: 'lm-eval:arith', name: 'arith' },
      condition: { name: 'unknown model' },
      metrics: {},
    });
    expect(run!.examples).toHaveLength(3);
    expect(run!.warnings[0]).toMatch(/^no results file beside samples_arith_/);
  });

  it('reads Python NaN and Infinity in results and samples as numbers', async () => {
    const { results, samples } = writeLmEval(dir, { filters: ['none'] });
    const text = fs.readFileSync(results, 'utf8');
    fs.writeFileSync(
      results,
      text.replace('"exact_match_stderr,none": 0.1', '"exact_match_stderr,none": NaN'),
    );
    const lines = fs.readFileSync(samples!, 'utf8').trim().split('\n');
    lines[0] = lines[0]!.replace('"exact_match":1', '"exact_match":-Infinity');
    fs.writeFileSync(samples!, lines.join('\n'));
    const [run] = await importLmEval(unitOf(results, samples!), importContext());
    expect(run!.metrics['exact_match_stderr,none']).toBeNaN();
    expect(run!.examples[0]!.fields['exact_match,none']).toBe(-Infinity);
  });

  it('rejects a file that is not lm-eval results', async () => {
    const file = writeFile(dir, 'results_2026-01-01T00-00-00.json', '{"results": [1]}');
    expect(await importProblemMessage(importLmEval(unitOf(file), importContext()))).toMatch(
      /not an lm-evaluation-harness results file/,
    );
  });
});
