import { describe, expect, it } from 'vitest';
import {
  deriveExperimentId,
  importMechlens,
  isMechlensRecord,
} from '../../../electron/core/ingest/importers/mechlens';
import { ImportProblem } from '../../../electron/core/ingest/types';
import { examples, mechlensRecord } from '../../fixtures/formats';

const src = { path: '/data/.mechlens/runs/run-0001.json', mtimeMs: 0 };

function problem(value: unknown, path = src.path): string {
  try {
    importMechlens(value, { path, mtimeMs: 0 });
  } catch (error) {
    expect(error).toBeInstanceOf(ImportProblem);
    return (error as Error).message;
  }
  throw new Error('expected a problem');
}

describe('isMechlensRecord', () => {
  it('recognises a record by its keys, or anything under .mechlens/runs', () => {
    expect(isMechlensRecord(mechlensRecord(), '/x/run.json')).toBe(true);
    expect(isMechlensRecord({ project: 'p', name: 'n', model: { id: 'm' } }, '/x/run.json')).toBe(
      false,
    );
    expect(isMechlensRecord({ whatever: 1 }, '/x/.mechlens/runs/abc.json')).toBe(true);
    expect(isMechlensRecord([], 'C:\\x\\.mechlens\\runs\\abc.json')).toBe(true);
  });
});

describe('importMechlens', () => {
  it('maps a full record with experiment linkage', () => {
    const run = importMechlens(
      mechlensRecord({
        name: 'steer@-2.0',
        experiment: { id: 'exp-1', role: 'intervention' },
        condition: {
          expect: { refusal_rate: 'decrease' },
          compare_to: ['control'],
          series: 'steer',
          level: -2,
        },
      }),
      src,
    );
    expect(run).toMatchObject({
      runId: 'run-0001',
      format: 'mechlens',
      formatVersion: '0.3.0',
      project: 'test-project',
      experiment: {
        id: 'exp-1',
        name: 'Does the intervention change refusals?',
        claim: 'It lowers refusals.',
        deviations: ['Small sample'],
        reproduces: null,
      },
      condition: {
        name: 'steer@-2.0',
        role: 'intervention',
        series: 'steer',
        level: -2,
        expect: { refusal_rate: 'decrease' },
        compareTo: ['control'],
      },
      codeCommit: '0123456789abcdef0123456789abcdef01234567',
      startedAt: '2026-09-14T09:00:00Z',
      finishedAt: '2026-09-14T09:04:00Z',
      state: 'completed',
      seed: 7,
      metrics: { refusal_rate: 0.5 },
      metricDefinitions: {
        refusal_rate: { example_field: 'refused', direction: 'lower_is_better' },
      },
      warnings: [],
    });
    expect(run.settings.model).toEqual({ id: 'org/model', revision: 'abc123' });
    expect(run.settings.sae).toBeNull();
    expect(run.examples[0]).toEqual({
      id: 'ex-001',
      input: 'Prompt number 1?',
      output: 'Answer number 1.',
      fields: { refused: true, score: 1 },
      target: null,
      error: null,
    });
  });

  it('reads linkage and condition options from the top level or a declaration', () => {
    const run = importMechlens(
      mechlensRecord({
        experiment: null,
        extra: {
          experiment_id: 'exp-top',
          role: 'control',
          claim: 'top claim',
          reproduces: { arxiv: '2406.11717', reported: { refusal_rate: { reference: 0.95 } } },
          condition: undefined,
          expect: { refusal_rate: 'no_effect' },
          series: 's',
          level: 1.5,
        },
      }),
      src,
    );
    expect(run.experiment).toMatchObject({
      id: 'exp-top',
      claim: 'top claim',
      reproduces: { arxiv: '2406.11717' },
    });
    expect(run.condition).toMatchObject({
      role: 'control',
      expect: { refusal_rate: 'no_effect' },
      series: 's',
      level: 1.5,
    });

    const declared = importMechlens(
      mechlensRecord({
        experiment: null,
        extra: { declaration: { question: 'Q?', claim: 'C.', role: 'reference' } },
      }),
      src,
    );
    // No id anywhere: derived from project, question and claim, as the SDK derives it.
    expect(declared.experiment?.id).toBe(deriveExperimentId('test-project', 'Q?', 'C.'));
    expect(declared.condition.role).toBe('reference');
  });

  it('treats a plain start_run record as having no experiment', () => {
    const run = importMechlens(mechlensRecord({ experiment: null, name: 'baseline' }), src);
    expect(run.experiment).toBeNull();
    expect(run.condition.role).toBeNull();
  });

  it('reads flattened example fields and falls back to the file name for the run id', () => {
    const run = importMechlens(mechlensRecord({ flatten: true, extra: { id: undefined } }), {
      path: '/x/.mechlens/runs/4acacfbd.json',
      mtimeMs: 0,
    });
    expect(run.runId).toBe('4acacfbd');
    expect(run.examples[1]?.fields).toEqual({ refused: false, score: 2 });
  });

  it('maps the SDK 0.2 baseline role and warns about values it cannot use', () => {
    const run = importMechlens(
      mechlensRecord({
        experiment: { id: 'e', role: 'baseline' },
        condition: {
          expect: { refusal_rate: 'lower', ok: 'increase' },
          level: 'high',
          compare_to: 3,
        },
        extra: {
          metric_definitions: { refusal_rate: { direction: 'down', example_field: 'refused' } },
        },
      }),
      src,
    );
    expect(run.condition.role).toBe('reference');
    expect(run.condition.expect).toEqual({ ok: 'increase' });
    expect(run.condition.level).toBeNull();
    expect(run.condition.compareTo).toEqual([]);
    expect(run.metricDefinitions.refusal_rate).toMatchObject({
      example_field: 'refused',
      direction: null,
    });
    expect(run.warnings).toHaveLength(4);
  });

  it('rejects examples that are not a list', () => {
    expect(problem(mechlensRecord({ extra: { examples: { a: 1 } } }))).toBe(
      '"examples" should be a list of examples, but it is an object',
    );
  });

  it('rejects an example whose id is not a string, naming the example', () => {
    const list = examples(3);
    const record = mechlensRecord({ examples: list });
    (record.examples as Record<string, unknown>[])[2]!.id = 17;
    expect(problem(record)).toBe(
      'example 3: "id" should be a non-empty string, but it is a number (17)',
    );
  });

  it('rejects non-string input or output, naming the example and its id', () => {
    const record = mechlensRecord();
    (record.examples as Record<string, unknown>[])[1]!.output = null;
    expect(problem(record)).toBe(
      'example 2 ("ex-002"): "output" should be a string, but it is null',
    );
    const missing = mechlensRecord();
    delete (missing.examples as Record<string, unknown>[])[0]!.input;
    expect(problem(missing)).toBe(
      'example 1 ("ex-001"): "input" should be a string, but it is missing',
    );
  });

  it('rejects duplicate example ids', () => {
    const list = examples(10);
    list[8]!.id = list[2]!.id;
    expect(problem(mechlensRecord({ examples: list }))).toBe(
      'duplicate example id "ex-003" (examples 3 and 9)',
    );
  });

  it('rejects a record without project or name, and a non-object', () => {
    expect(problem(mechlensRecord({ extra: { project: undefined } }))).toMatch(/no "project"/);
    expect(problem(mechlensRecord({ extra: { name: 42 } }))).toMatch(/no "name"/);
    expect(problem([1, 2])).toBe(
      'a MechLens run record should be a JSON object, but this file holds a list',
    );
  });
});
