import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { importRepsRun } from '../../../electron/core/ingest/importers/reps';
import { ImportProblem, type SourceUnit } from '../../../electron/core/ingest/types';
import {
  conditionHash,
  TINY_ZSTD_STREAM,
  writeRepsRun,
  writeTinyZstdRun,
  type RepsRunOptions,
} from '../../fixtures/reps';
import { importContext } from '../../fixtures/import';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-reps-'));
let dataDir = '';
let counter = 0;

beforeEach(() => {
  counter += 1;
  dataDir = path.join(root, `case-${counter}`, 'my-reps-data');
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const inspectRun: Omit<RepsRunOptions, 'dataDir'> = {
  samples: [
    {
      id: 1,
      input: 'Say "model".',
      output: 'A model reply.',
      scores: { includes: 'C' },
      target: 'model',
    },
    {
      id: 'two',
      input: 'Say "output".',
      output: 'No.',
      scores: { includes: 'I', 'judge/tone': 0.5 },
      error: 'timeout',
    },
  ],
  metrics: { 'includes/accuracy': 0.5, 'includes/stderr': 0.5 },
  results: { samples: 2, score: 0.5, score_name: 'includes/accuracy' },
};

async function importOne(unit: SourceUnit) {
  const runs = await importRepsRun(unit, importContext());
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

describe('importRepsRun', () => {
  it('maps a finished Inspect-program run onto the common model', async () => {
    const unit = writeRepsRun({ dataDir, ...inspectRun });
    const run = await importOne(unit);
    const hash = conditionHash('inspect-hello', run.settings.params!);

    expect(run).toMatchObject({
      runId: '20260916t120000z-3fa9c2d41b7e',
      format: 'reps',
      formatVersion: 'v1/schema0',
      project: 'my-reps-data',
      experiment: { id: 'inspect-hello', name: 'inspect-hello' },
      condition: {
        identityHash: hash,
        name: `${hash.slice(0, 7)} generate_args.temperature=0 model=vllm/Qwen/Qwen2.5-7B-Instruct`,
        role: null,
      },
      state: 'completed',
      seed: 42,
      startedAt: '2026-09-16T12:00:00.000000Z',
      codeCommit: 'd1e75aca'.repeat(5),
      settings: { model: { id: 'vllm/Qwen/Qwen2.5-7B-Instruct' } },
    });
    expect(run.warnings).toEqual([]);
    expect(run.metrics).toEqual({
      samples: 2,
      score: 0.5,
      score_name: 'includes/accuracy',
      'includes/accuracy': 0.5,
      'includes/stderr': 0.5,
    });
    expect(run.metricDefinitions.samples).toMatchObject({
      label: 'Label of samples',
      description: 'What samples means',
      unit: 'samples',
      type: { kind: 'float' },
      direction: null,
    });
    expect(run.metricDefinitions['includes/accuracy']?.example_field).toBe('includes');
    expect(run.metricDefinitions['includes/stderr']?.example_field).toBeNull();
    expect(run.provenance).toMatchObject({
      source: `content:sha256:${'5'.repeat(64)}`,
      served_models: ['Qwen/Qwen2.5-7B-Instruct'],
      usage: { input_tokens: 48, output_tokens: 20 },
      counts: { llm_calls: 4, failed_calls: 0 },
      exit_code: 0,
    });

    expect(run.examples).toEqual([
      {
        id: '1',
        input: 'Say "model".',
        output: 'A model reply.',
        fields: { includes: 'C' },
        target: 'model',
        error: null,
      },
      {
        id: 'two',
        input: 'Say "output".',
        output: 'No.',
        fields: { includes: 'I', 'judge/tone': 0.5 },
        target: '',
        error: 'timeout',
      },
    ]);
  });

  it('gives replicates of one condition the same identity and name, and their own run ids', async () => {
    const first = await importOne(writeRepsRun({ dataDir, ...inspectRun, seed: 1 }));
    const second = await importOne(
      writeRepsRun({
        dataDir,
        ...inspectRun,
        seed: 2,
        runId: '20260916t121030z-c61d0f8e5a3b',
        params: { generate_args: { temperature: 0 }, model: 'vllm/Qwen/Qwen2.5-7B-Instruct' },
      }),
    );
    const other = await importOne(
      writeRepsRun({
        dataDir,
        ...inspectRun,
        runId: '20260916t122000z-aaaaaaaaaaaa',
        params: { model: 'x', t: 1.2 },
      }),
    );
    expect(second.condition.identityHash).toBe(first.condition.identityHash);
    expect(second.condition.name).toBe(first.condition.name);
    expect([first.seed, second.seed]).toEqual([1, 2]);
    expect(second.runId).not.toBe(first.runId);
    expect(other.condition.identityHash).not.toBe(first.condition.identityHash);
    expect(other.condition.name).toMatch(/^[0-9a-f]{7} model=x t=1\.2$/);
  });

  it('imports a run without run.end as incomplete: running while fresh, interrupted when stale', async () => {
    const unit = writeRepsRun({ dataDir, ...inspectRun, end: null });
    const live = await importOne(unit);
    expect(live.state).toBe('running');
    expect(live.finishedAt).toBeNull();
    expect(live.warnings).toContain('no run.end record: imported as incomplete');
    expect(live.examples).toHaveLength(2);

    const old = new Date(Date.now() - 10 * 60_000);
    for (const file of unit.files) fs.utimesSync(file, old, old);
    expect((await importOne(unit)).state).toBe('interrupted');
  });

  it('skips a half-written last line with a warning and keeps everything before it', async () => {
    const run = await importOne(
      writeRepsRun({ dataDir, ...inspectRun, end: null, halfWrittenTail: true }),
    );
    expect(
      run.warnings.some((w) => /^events\.jsonl: line \d+, the last line, was skipped/.test(w)),
    ).toBe(true);
    expect(run.metrics.score).toBe(0.5);
    expect(run.examples).toHaveLength(2);
  });

  it('reads events.jsonl.zst the same as events.jsonl', async () => {
    const plain = await importOne(writeRepsRun({ dataDir, ...inspectRun }));
    const zst = await importOne(
      writeRepsRun({ dataDir: `${dataDir}-zst`, ...inspectRun, events: 'zst' }),
    );
    expect({ ...zst, project: plain.project }).toEqual(plain);
  });

  it('decodes a real compressed zstd frame', async () => {
    const run = await importOne(writeTinyZstdRun(dataDir));
    expect(run).toMatchObject({
      runId: TINY_ZSTD_STREAM.runId,
      experiment: { id: 'tiny' },
      condition: { identityHash: TINY_ZSTD_STREAM.condition, name: 'c0ffee0 n=1' },
      state: 'completed',
      seed: 7,
      metrics: { score: 0.75 },
    });
  });

  it('keeps what a cut-short .zst stream holds, with a warning', async () => {
    const unit = writeRepsRun({ dataDir, ...inspectRun, events: 'zst' });
    const file = unit.files.find((f) => f.endsWith('.zst'))!;
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 40));
    const run = await importOne(unit);
    expect(
      run.warnings.some((w) => w.startsWith('events.jsonl.zst: the zstd stream ends early')),
    ).toBe(true);
  });

  it('refuses a damaged .zst stream with a message naming the file', async () => {
    const unit = writeRepsRun({ dataDir, ...inspectRun, events: 'zst' });
    const file = unit.files.find((f) => f.endsWith('.zst'))!;
    const bytes = fs.readFileSync(file);
    bytes[4] = 0xff; // frame header descriptor with its reserved bit set
    fs.writeFileSync(file, bytes);
    const error = await importRepsRun(unit, importContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportProblem);
    expect((error as ImportProblem).message).toMatch(/^events\.jsonl\.zst: /);
    expect((error as ImportProblem).importer).toBe('reps');
  });

  it('imports from the stream alone when run.json is missing', async () => {
    const run = await importOne(writeRepsRun({ dataDir, ...inspectRun, card: false }));
    expect(run.warnings).toContain('run.json is missing: imported from the event stream alone');
    expect(run.state).toBe('completed');
    expect(run.examples).toHaveLength(2);
    expect(run.metricDefinitions.score?.label).toBe('Label of score');
  });

  it('imports the card alone when the stream is missing', async () => {
    const run = await importOne(writeRepsRun({ dataDir, ...inspectRun, events: 'none' }));
    expect(run.warnings.some((w) => w.startsWith('events.jsonl is missing'))).toBe(true);
    expect(run).toMatchObject({
      runId: '20260916t120000z-3fa9c2d41b7e',
      state: 'completed',
      seed: 42,
      metrics: { samples: 2, score: 0.5 },
      examples: [],
      finishedAt: expect.stringMatching(/Z$/),
    });
  });

  it('refuses a broken run.json with a clear message', async () => {
    const unit = writeRepsRun({ dataDir, ...inspectRun });
    fs.writeFileSync(
      unit.files.find((f) => f.endsWith('run.json'))!,
      '{"identity": {',
    );
    const error = await importRepsRun(unit, importContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportProblem);
    expect((error as ImportProblem).message).toMatch(/^run\.json is not valid JSON/);
    expect((error as ImportProblem).importer).toBe('reps');
  });

  it('stops when the import is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const unit = writeRepsRun({ dataDir, ...inspectRun });
    await expect(importRepsRun(unit, { signal: controller.signal })).rejects.toThrow(/abort/i);
  });

  it('refuses a folder with neither file', async () => {
    await expect(
      importRepsRun({ path: root, kind: 'reps-run', files: [] }, importContext()),
    ).rejects.toThrow(ImportProblem);
  });

  it('trusts the stream over a card that disagrees with it', async () => {
    const run = await importOne(
      writeRepsRun({
        dataDir,
        ...inspectRun,
        cardPatch: { identity: { run: 'other-run', experiment: 'inspect-hello', schema: 0 } },
      }),
    );
    expect(run.runId).toBe('20260916t120000z-3fa9c2d41b7e');
    expect(run.warnings).toContain(
      "run.json and the stream disagree on run; the stream's value was used",
    );
  });

  it('warns when the card and the stream report different results at the same seq', async () => {
    const unit = writeRepsRun({ dataDir, ...inspectRun });
    const cardPath = unit.files.find((f) => f.endsWith('run.json'))!;
    const card = JSON.parse(fs.readFileSync(cardPath, 'utf8'));
    card.derived.results.score = 0.99;
    fs.writeFileSync(cardPath, JSON.stringify(card));
    const run = await importOne(unit);
    expect(run.metrics.score).toBe(0.5);
    expect(run.warnings).toContain(
      "run.json's derived results differ from the stream's; the stream's were used",
    );
  });

  it('imports a card-only run that never ended as incomplete', async () => {
    const run = await importOne(
      writeRepsRun({ dataDir, ...inspectRun, end: null, events: 'none' }),
    );
    expect(run.state).toBe('running');
    expect(run.warnings).toContain('no run.end record: imported as incomplete');
  });

  it('imports a results-only experiment with failed state, no examples, and "reps" as project', async () => {
    const outside = path.join(root, `loose-${counter}`);
    const unit = writeRepsRun({
      dataDir,
      experiment: 'govsim',
      params: { experiment: 'fish_baseline', model: 'mock/model' },
      results: { rounds: 3, collapsed: true },
      end: 'failed',
      extraEvents: [
        { type: 'custom', kind: 'govsim.harvest', data: { agent_id: 'persona_0', round: 0 } },
      ],
    });
    fs.cpSync(unit.path, outside, { recursive: true });
    const run = await importOne({
      ...unit,
      path: outside,
      files: unit.files.map((f) => path.join(outside, path.basename(f))),
    });
    expect(run).toMatchObject({
      project: 'reps',
      experiment: { id: 'govsim' },
      state: 'failed',
      metrics: { rounds: 3, collapsed: true },
      examples: [],
    });
    expect(run.warnings).toContain('the run ended failed (exit code 1)');
    expect(Object.keys(run.metricDefinitions)).toEqual(['rounds', 'collapsed']);
  });

  it('keys repeats of a sample as id#repeat and keeps the last of a duplicated id', async () => {
    const run = await importOne(
      writeRepsRun({
        dataDir,
        samples: [
          { id: 'q', input: 'in', output: 'first', scores: { s: 0 } },
          { id: 'q', repeat: 2, input: 'in', output: 'second', scores: { s: 1 } },
          { id: 'q', repeat: 2, input: 'in', output: 'again', scores: { s: 2 } },
        ],
      }),
    );
    expect(run.examples.map((e) => [e.id, e.output, e.fields.s])).toEqual([
      ['q', 'first', 0],
      ['q#2', 'again', 2],
    ]);
    expect(run.warnings.some((w) => w.includes('appear more than once'))).toBe(true);
  });
});
