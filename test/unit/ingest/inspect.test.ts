import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  importInspectEval,
  importInspectJson,
  isInspectJsonLog,
} from '../../../electron/core/ingest/importers/inspect';
import { ImportProblem } from '../../../electron/core/ingest/types';
import {
  evalHeader,
  evalSample,
  evalZipEntries,
  jsonLog,
  writeEvalLog,
  zipBytes,
} from '../../fixtures/inspect';
import { importContext, inspectScratch, threeSamples } from '../../fixtures/inspect-scratch';

const scratch = inspectScratch('pairwise-inspect-');
const { logs, file, writeZip, importEval } = scratch;
const ctx = importContext;

afterAll(scratch.cleanup);

describe('isInspectJsonLog', () => {
  it('recognises an EvalLog and nothing else', () => {
    expect(isInspectJsonLog(jsonLog())).toBe(true);
    expect(isInspectJsonLog({ version: 2, eval: { task: 't' } })).toBe(false);
    expect(isInspectJsonLog({ project: 'p', name: 'n', model: { id: 'm' }, examples: [] })).toBe(
      false,
    );
    expect(isInspectJsonLog([jsonLog()])).toBe(false);
  });
});

describe('importInspectJson', () => {
  it('maps header, samples and results onto the common model', () => {
    const log = jsonLog({ samples: threeSamples, modelArgs: { steering: { strength: -4 } } });
    const [run] = importInspectJson(log, { path: path.join(logs, 'a.json') });
    expect(run).toMatchObject({
      runId: 'evalAAAAAAAAAAAAAAAAAA',
      format: 'inspect',
      formatVersion: '2',
      project: 'my-evals',
      experiment: { id: 'popularity', name: 'popularity' },
      condition: {
        name: 'openai/gpt-4o-mini steering.strength=-4 temperature=0.5',
        identityHash: null,
      },
      state: 'completed',
      seed: 7,
      codeCommit: 'e9a9d7161',
      startedAt: '2025-05-13T00:28:13.000Z',
      finishedAt: '2025-05-13T00:28:15.000Z',
      metrics: { 'match/accuracy': 0.6666666666666666, 'match/stderr': 0.33333333333333337 },
      settings: {
        model: { id: 'openai/gpt-4o-mini', args: { steering: { strength: -4 } } },
        dataset: { id: 'popularity', location: 'example://popularity', samples: 100 },
        generation: { temperature: 0.5, seed: 7 },
      },
      warnings: [],
    });
    // Logging and concurrency switches never make two conditions differ.
    expect(run!.settings.config).toEqual({
      limit: 3,
      epochs: 1,
      task_version: 0,
      plan: [{ solver: 'generate', params: {} }],
    });
    expect(run!.metricDefinitions['match/accuracy']).toMatchObject({
      example_field: 'match',
      scorer: 'match',
      direction: null,
    });
    expect(run!.metricDefinitions['match/stderr']?.example_field).toBeNull();
    expect(run!.examples).toEqual([
      {
        id: '1',
        input: 'question 1',
        output: 'Yes',
        fields: { match: 'C' },
        target: 'target',
        error: null,
      },
      {
        id: '2',
        input: 'question 2',
        output: 'No',
        fields: { match: 'I' },
        target: 'target',
        error: null,
      },
      {
        id: '3',
        input: 'question 3',
        output: 'No',
        fields: { match: 'C' },
        target: '["No","Nope"]',
        error: null,
      },
    ]);
  });

  it('flattens dict scores and reads chat inputs and attachments', () => {
    const samples = [
      evalSample({ id: 'q', scores: { rubric: { tone: 0.5, facts: 'C' } } }),
      evalSample({
        id: 'chat',
        input: [
          { role: 'system', content: 'attachment://aaaa' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Hi' },
              { type: 'image', image: 'x' },
            ],
          },
        ],
        attachments: { aaaa: 'Be nice.' },
        error: 'RuntimeError: boom',
      }),
    ];
    const [run] = importInspectJson(jsonLog({ samples }), { path: 'x/a.json' });
    expect(run!.examples.map((e) => [e.id, e.fields])).toEqual([
      ['q', { 'rubric/tone': 0.5, 'rubric/facts': 'C' }],
      ['chat', { match: 'C' }],
    ]);
    expect(run!.examples[1]).toMatchObject({
      input: 'Be nice.\n\nHi',
      error: 'RuntimeError: boom',
    });
  });

  it('imports a log with no samples as metrics only, with a warning', () => {
    const [run] = importInspectJson(jsonLog({ status: 'cancelled' }), { path: 'x/a.json' });
    expect(run!.examples).toEqual([]);
    expect(run!.state).toBe('interrupted');
    expect(run!.metrics['match/accuracy']).toBeCloseTo(2 / 3);
    expect(run!.warnings.some((w) => w.startsWith('the log contains no samples'))).toBe(true);
    expect(run!.warnings.some((w) => w.includes('cancelled'))).toBe(true);
  });

  it('imports an errored eval as failed, with the error as a warning', () => {
    const log = jsonLog({
      status: 'error',
      error: 'RateLimitError: slow down\nmore',
      samples: threeSamples,
    });
    const [run] = importInspectJson(log, { path: 'x/a.json' });
    expect(run!.state).toBe('failed');
    expect(run!.warnings).toContain('the eval ended with an error: RateLimitError: slow down');
    expect(run!.provenance.error).toBe('RateLimitError: slow down\nmore');
  });

  it('falls back to run_id:task_id for logs older than eval_id, and to the plan config', () => {
    const log = jsonLog();
    const spec = log.eval as Record<string, unknown>;
    delete spec.eval_id;
    delete spec.model_generate_config;
    (log.plan as Record<string, unknown>).config = { temperature: 1 };
    const [run] = importInspectJson(log, { path: 'x/a.json' });
    expect(run!.runId).toBe('runBBBBBBBBBBBBBBBBBBBB:taskCCCCCCCCCCCCCCCCCC');
    expect(run!.settings.generation).toEqual({ temperature: 1 });
  });

  it('records every setting that can tell two logs of one task apart', () => {
    const log = jsonLog({ samples: threeSamples, taskArgs: { shots: 5 } });
    Object.assign(log.eval as Record<string, unknown>, {
      task_version: '1.2',
      sandbox: { type: 'docker', config: 'compose.yaml' },
      model_base_url: 'http://localhost:11434',
      solver: 'my_agent',
      solver_args: { tools: ['bash'] },
      dataset: { name: 'popularity', location: 'hf://x/popularity', revision: 'abc', samples: 9 },
    });
    const [run] = importInspectJson(log, { path: 'x/a.json' });
    expect(run!.experiment?.id).toBe('popularity@1.2');
    expect(run!.settings.model).toEqual({
      id: 'openai/gpt-4o-mini',
      base_url: 'http://localhost:11434',
    });
    expect(run!.settings.dataset).toEqual({
      id: 'popularity',
      location: 'hf://x/popularity',
      revision: 'abc',
      samples: 9,
    });
    expect(run!.settings.config).toMatchObject({
      epochs: 1,
      task_args: { shots: 5 },
      task_version: '1.2',
      solver: 'my_agent',
      solver_args: { tools: ['bash'] },
      plan: [{ solver: 'generate', params: {} }],
      sandbox: { type: 'docker', config: 'compose.yaml' },
    });
  });

  it('refuses a value that is not an EvalLog', () => {
    expect(() => importInspectJson({ version: 2 }, { path: 'x.json' })).toThrow(ImportProblem);
  });
});

describe('importInspectEval', () => {
  it('reads a finished .eval like the same log as .json', async () => {
    const fromZip = await importEval(writeEvalLog(file(), 'finished', { samples: threeSamples }));
    const [fromJson] = importInspectJson(jsonLog({ samples: threeSamples }), {
      path: path.join(logs, 'same.json'),
    });
    expect(fromZip).toEqual(fromJson);
  });

  it('reads a journal-only .eval (still running or crashed) as running', async () => {
    const run = await importEval(writeEvalLog(file(), 'journal', { samples: threeSamples }));
    expect(run.state).toBe('running');
    expect(run.finishedAt).toBeNull();
    expect(run.metrics).toEqual({});
    expect(run.examples.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect(run.warnings.some((w) => w.includes('status "started"'))).toBe(true);
  });

  it('builds examples from summaries when the journal has no sample files', async () => {
    const entries = evalZipEntries('journal', { samples: threeSamples }).filter(
      (entry) => !entry.name.startsWith('samples/'),
    );
    const run = await importEval(writeZip(entries));
    expect(run.examples).toHaveLength(3);
    expect(run.examples[1]).toMatchObject({
      id: '2',
      input: 'question 2',
      output: '',
      fields: { match: 'I' },
    });
    expect(run.warnings.some((w) => w.includes('built from its sample summaries'))).toBe(true);
  });

  it('reads chunked samples, resolving attachment refs and message_refs', async () => {
    const samples = [
      evalSample({ id: 'a', epoch: 1, output: 'first answer' }),
      evalSample({ id: 'a', epoch: 2, output: 'second answer' }),
      evalSample({ id: 'no-completion', output: 'from the conversation' }),
    ];
    const run = await importEval(writeEvalLog(file(), 'chunked', { samples, version: 3 }));
    expect(run.formatVersion).toBe('3');
    expect(run.examples.map((e) => [e.id, e.input, e.output])).toEqual([
      ['a', 'question a', 'first answer'],
      ['no-completion', 'question no-completion', 'from the conversation'],
    ]);
    expect(run.examples[0]!.fields.epochs).toMatchObject({
      count: 2,
      per_epoch: [{ output: 'first answer' }, { output: 'second answer' }],
    });
    expect(run.warnings).toEqual([]);
  });

  it('reads a log with no samples', async () => {
    const run = await importEval(writeEvalLog(file(), 'finished', { status: 'cancelled' }));
    expect(run.examples).toEqual([]);
    expect(run.state).toBe('interrupted');
    expect(run.warnings.some((w) => w.startsWith('the log contains no samples'))).toBe(true);
  });

  it('reads the 2024 layout with start.json and results.json at the top', async () => {
    const { results, stats, status, ...start } = evalHeader();
    const run = await importEval(
      writeZip([
        { name: 'start.json', data: JSON.stringify(start) },
        { name: 'results.json', data: JSON.stringify({ results, stats, status }) },
        { name: 'samples/1_epoch_1.json', data: JSON.stringify(threeSamples[0]) },
      ]),
    );
    expect(run).toMatchObject({
      state: 'completed',
      metrics: { 'match/accuracy': 0.6666666666666666 },
    });
    expect(run.examples.map((e) => e.id)).toEqual(['1']);
  });

  it('skips one unreadable sample with a warning', async () => {
    const entries = evalZipEntries('finished', { samples: threeSamples });
    entries.push({ name: 'samples/4_epoch_1.json', data: '{"id": 4, "inp' });
    const run = await importEval(writeZip(entries));
    expect(run.examples).toHaveLength(3);
    expect(run.warnings).toContain(
      '1 sample(s) could not be read and were skipped (samples/4_epoch_1.json)',
    );
  });

  it('skips a sample whose compressed bytes are damaged', async () => {
    const entries = evalZipEntries('finished', { samples: threeSamples }).map((entry) =>
      entry.name === 'samples/2_epoch_1.json' ? { ...entry, corrupt: true } : entry,
    );
    const run = await importEval(writeZip(entries));
    expect(run.examples.map((e) => e.id)).toEqual(['1', '3']);
    expect(run.warnings).toContain(
      '1 sample(s) could not be read and were skipped (samples/2_epoch_1.json)',
    );
  });

  it('stops when the import is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const log = writeEvalLog(file(), 'finished', { samples: threeSamples });
    await expect(importInspectEval(log, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });

  it('refuses a corrupt archive', async () => {
    const good = zipBytes(evalZipEntries('finished', { samples: threeSamples }));
    const truncated = file();
    fs.writeFileSync(truncated, good.subarray(0, good.length - 30));
    await expect(importInspectEval(truncated, ctx())).rejects.toThrow(
      /^not a readable \.eval archive: /,
    );
    const garbage = file();
    fs.writeFileSync(garbage, 'PK\u0003\u0004 this is not really a zip');
    await expect(importInspectEval(garbage, ctx())).rejects.toThrow(ImportProblem);
  });

  it('refuses an archive without an Inspect header', async () => {
    await expect(
      importInspectEval(writeZip([{ name: 'readme.txt', data: 'hi' }]), ctx()),
    ).rejects.toThrow(/neither header\.json nor _journal\/start\.json/);
  });

  it('refuses zip bombs, whatever sizes they declare', async () => {
    const zeros = Buffer.alloc(11 * 1024 * 1024);
    const entries = evalZipEntries('finished', { samples: threeSamples });
    const honest = writeZip([...entries, { name: 'samples/9_epoch_1.json', data: zeros }]);
    await expect(importInspectEval(honest, ctx())).rejects.toThrow(
      /would expand more than 200:1.*zip bomb/,
    );

    const lying = writeZip([
      ...entries,
      { name: 'samples/9_epoch_1.json', data: zeros, declaredSize: 100 },
    ]);
    await expect(importInspectEval(lying, ctx())).rejects.toThrow(
      /beyond the 100 bytes it declares/,
    );

    const huge = writeZip([
      { name: 'header.json', data: JSON.stringify(evalHeader()), declaredSize: 3 * 1024 ** 3 },
    ]);
    await expect(importInspectEval(huge, ctx())).rejects.toThrow(/more than 2 GiB.*zip bomb/);
  });

  it('accepts a big entry that compresses less than 200:1', async () => {
    const long = randomBytes(9 * 1024 * 1024).toString('base64');
    const samples = [evalSample({ id: 'big', output: long })];
    const run = await importEval(writeEvalLog(file(), 'finished', { samples }));
    expect(run.examples[0]?.output).toHaveLength(long.length);
  });
});
