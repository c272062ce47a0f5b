import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  importInspectEval,
  importInspectJson,
} from '../../../electron/core/ingest/importers/inspect';
import {
  reduceValues,
  reducerNamed,
  valueToFloat,
} from '../../../electron/core/ingest/importers/inspect-reducers';
import type { JsonValue } from '../../../shared/model';
import { evalSample, jsonLog, writeEvalLog, type LogOptions } from '../../fixtures/inspect';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-inspect-epochs-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Sample `id` over epochs 1…n, with these outputs and `match` grades. */
function epochsOf(id: string | number, grades: JsonValue[], outputs?: string[]) {
  return grades.map((grade, i) =>
    evalSample({
      id,
      epoch: i + 1,
      output: outputs?.[i] ?? `answer ${i + 1}`,
      scores: { match: grade },
    }),
  );
}

function importJson(options: LogOptions) {
  const [run] = importInspectJson(jsonLog(options), { path: path.join(root, 'a.json') });
  return run!;
}

const reduce = (name: string, values: JsonValue[]) => reduceValues(values, reducerNamed(name)!);

describe('Inspect reducers', () => {
  it('converts values the way value_to_float does', () => {
    expect(
      ['C', 'I', 'P', 'N', 'yes', 'TRUE', 'no', 'False', '0.25', 'c', 'maybe'].map(valueToFloat),
    ).toEqual([1, 0, 0.5, 0, 1, 1, 0, 0, 0.25, 0, 0]);
    expect([true, false, 3].map(valueToFloat)).toEqual([1, 0, 3]);
  });

  it('implements mean, median, mode, max, pass_at_k and at_least_k', () => {
    const grades = ['C', 'I', 'C', 'P'];
    expect(reduce('mean', grades)).toBe(0.625);
    expect(reduce('median', grades)).toBe(0.75);
    expect(reduce('median', [3, 1, 2])).toBe(2);
    expect(reduce('mode', grades)).toBe('C');
    expect(reduce('mode', ['I', 'C'])).toBe('I');
    expect(reduce('max', ['I', 'P', 'C', 'C'])).toBe('C');
    expect(reduce('at_least_2', grades)).toBe(1);
    expect(reduce('at_least_3', grades)).toBe(0);
    // n = 4, c = 2: 1 - (1 - 2/3)(1 - 2/4) = 5/6.
    expect(reduce('pass_at_2', grades)).toBeCloseTo(5 / 6, 12);
    expect(reduce('pass_at_1', ['C', 'C', 'I'])).toBeCloseTo(2 / 3, 12);
    expect(reduce('pass_at_2', ['C', 'C', 'I'])).toBe(1);
    expect(reduce('pass_at_5', grades)).toBeNull();
    expect(reducerNamed('trimmed_mean')).toBeNull();
  });

  it('reduces dicts key by key and lists index by index, skipping unscored values', () => {
    expect(reduce('mean', [{ tone: 1, facts: 'C' }, { tone: 0, facts: 'I' }, null])).toEqual({
      tone: 0.5,
      facts: 0.5,
    });
    expect(
      reduce('max', [
        [1, 'I'],
        [0, 'C'],
      ]),
    ).toEqual([1, 'C']);
    expect(reduce('mean', [null, null])).toBeNull();
  });
});

describe('Inspect logs run over several epochs', () => {
  it('makes one example per sample, its scores reduced as Inspect reduces them', () => {
    const samples = [
      ...epochsOf(1, ['C', 'I', 'P'], ['Yes', 'No', 'Yes']),
      ...epochsOf(2, ['C', 'C', 'C'], ['No', 'No', 'No']),
    ];
    const run = importJson({ samples, epochs: 3 });
    expect(run.examples.map((e) => [e.id, e.output, e.fields.match])).toEqual([
      ['1', 'Yes', 0.5],
      ['2', 'No', 1],
    ]);
    expect(run.examples[0]!.fields.epochs).toEqual({
      count: 3,
      outputs_differ: true,
      per_epoch: [
        { epoch: 1, output: 'Yes', scores: { match: 'C' } },
        { epoch: 2, output: 'No', scores: { match: 'I' } },
        { epoch: 3, output: 'Yes', scores: { match: 'P' } },
      ],
    });
    expect(run.examples[1]!.fields.epochs).toMatchObject({ outputs_differ: false });
    expect(run.settings.config?.epochs).toBe(3);
    expect(run.metricDefinitions['match/accuracy']?.example_field).toBe('match');
    expect(run.warnings).toEqual([]);
  });

  it('takes the reduced values the log holds over recomputing them', async () => {
    const samples = epochsOf('q', ['C', 'I']);
    const reductions = [{ scorer: 'match', samples: [{ value: 0.25, sample_id: 'q' }] }];
    const file = writeEvalLog(path.join(root, 'r.eval'), 'finished', {
      samples,
      epochs: 2,
      reductions,
    });
    const [fromEval] = await importInspectEval(file, { signal: new AbortController().signal });
    expect(fromEval!.examples.map((e) => [e.id, e.fields.match])).toEqual([['q', 0.25]]);
    expect(importJson({ samples, epochs: 2, reductions }).examples[0]!.fields.match).toBe(0.25);
  });

  it('uses the reducer the results name, else the configured one', () => {
    const samples = epochsOf('q', ['I', 'C', 'I']);
    const byConfig = importJson({ samples, epochs: 3, epochsReducer: ['max'] });
    expect(byConfig.examples[0]!.fields.match).toBe('C');
    const score = (reducer: string, value: number) => ({
      name: 'match',
      scorer: 'match',
      reducer,
      metrics: { accuracy: { name: 'accuracy', value } },
    });
    const byResults = importJson({
      samples,
      epochs: 3,
      epochsReducer: ['max', 'mode'],
      scores: [score('mode', 0), score('max', 1)],
    });
    expect(byResults.examples[0]!.fields.match).toBe('I');
    expect(byResults.metricDefinitions['match/accuracy']).toMatchObject({
      reducer: 'max',
      example_field: null,
    });
  });

  it('reduces with mean, and says so, when the reducer is unknown', () => {
    const run = importJson({
      samples: epochsOf('q', ['C', 'I']),
      epochs: 2,
      epochsReducer: ['trimmed_mean'],
    });
    expect(run.examples[0]!.fields.match).toBe(0.5);
    expect(run.warnings).toEqual([
      'the epochs reducer "trimmed_mean" is not one Pairwise knows and the log holds no reduced scores: its scores were reduced with mean instead',
    ]);
  });

  it('keeps a sample whose epochs failed in part, and marks one that failed in every epoch', () => {
    const failed = (id: string, epoch: number) =>
      evalSample({ id, epoch, scores: {}, error: `boom ${epoch}` });
    const samples = [
      evalSample({ id: 'some', epoch: 1, scores: { match: 'C' } }),
      failed('some', 2),
      failed('all', 1),
      failed('all', 2),
    ];
    const run = importJson({ samples, epochs: 2 });
    expect(run.examples.map((e) => [e.id, e.error, e.fields.match])).toEqual([
      ['some', null, 1],
      ['all', 'boom 1', undefined],
    ]);
    expect(run.examples[0]!.fields.epochs).toMatchObject({
      per_epoch: [{ epoch: 1 }, { epoch: 2, error: 'boom 2' }],
    });
  });

  it('keeps the last record of a repeated sample epoch, with a warning', () => {
    const samples = [...epochsOf('q', ['C', 'I']), ...epochsOf('q', ['C', 'C']).slice(1)];
    const run = importJson({ samples, epochs: 2 });
    expect(run.examples[0]!.fields.match).toBe(1);
    expect(run.warnings).toEqual([
      '1 sample epoch(s) appear more than once (q epoch 2); the last record of each was kept',
    ]);
  });

  it('records the epochs of an older log from its samples when the config leaves them out', () => {
    const log = jsonLog({ samples: epochsOf('q', ['C', 'I']) });
    delete (log.eval as { config: Record<string, unknown> }).config.epochs;
    const [run] = importInspectJson(log, { path: 'x/a.json' });
    expect(run!.settings.config?.epochs).toBe(2);
    expect(run!.examples.map((e) => e.id)).toEqual(['q']);
  });
});
