import { describe, expect, it } from 'vitest';
import {
  checkStatus,
  evaluatedDiffers,
  runChecks,
  seedOf,
  summarizeChecks,
} from '../../../shared/compare/checks';
import { pairExamples } from '../../../shared/compare/pairing';
import type { Check, CompareRun } from '../../../shared/compare/types';
import { makeExample, makeRun, withSettings } from '../../fixtures/compare';

const ref = makeRun({ examples: [makeExample('a')] });
const cand = makeRun({ runId: 'run-cand', conditionName: 'cand', examples: [makeExample('a')] });

function checks(a: CompareRun, b: CompareRun): Check[] {
  return runChecks(a, b, pairExamples(a, b));
}

function statusOf(list: Check[], path: string): string | undefined {
  return list.find((c) => c.path === path)?.status;
}

describe('checkStatus', () => {
  it.each([
    [undefined, undefined, false, 'unknown'],
    [1, undefined, false, 'unknown'],
    [undefined, 1, true, 'differs'],
    [undefined, undefined, true, 'unknown'],
    [1, 1.0, false, 'matches'],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, false, 'matches'],
    [[1, 2], [2, 1], false, 'differs'],
    ['x', 'y', true, 'differs'],
  ] as const)('%j vs %j (one-sided differs: %s) → %s', (a, b, oneSided, status) => {
    expect(checkStatus(a as never, b as never, oneSided)).toBe(status);
  });
});

describe('runChecks', () => {
  it('reports every category in the documented order, and identical runs match', () => {
    const list = checks(ref, cand);
    expect(list.map((c) => c.path)).toEqual([
      'model.id',
      'model.revision',
      'dataset.id',
      'dataset.revision',
      'dataset.split',
      'generation.max_new_tokens',
      'generation.temperature',
      'seed',
      'code_commit',
      'examples.ids',
      'examples.inputs',
    ]);
    expect(list.every((c) => c.status === 'matches')).toBe(true);
    expect(list[0]).toEqual({
      path: 'model.id',
      category: 'model',
      status: 'matches',
      reference: 'org/model',
      candidate: 'org/model',
    });
  });

  it('always reports model.id/revision and dataset.id/revision/split, unknown when missing', () => {
    const bare = withSettings(cand, { model: { id: 'org/model', dtype: 'bf16' }, dataset: null });
    const list = checks(ref, bare);
    expect(list.slice(0, 6).map((c) => [c.path, c.status])).toEqual([
      ['model.id', 'matches'],
      ['model.revision', 'unknown'],
      ['model.dtype', 'unknown'],
      ['dataset.id', 'unknown'],
      ['dataset.revision', 'unknown'],
      ['dataset.split', 'unknown'],
    ]);
    expect(list.find((c) => c.path === 'model.revision')).toMatchObject({
      reference: 'rev1',
      candidate: null,
    });
  });

  it('counts a recorded null as not recorded', () => {
    const nulled = withSettings(cand, { model: { id: 'org/model', revision: null } });
    expect(statusOf(checks(ref, nulled), 'model.revision')).toBe('unknown');
  });

  it('says differs for one-sided sae and intervention keys, and nothing when both lack them', () => {
    const steered = withSettings(cand, {
      sae: { release: 'r', hook: { layer: 12 } },
      intervention: { type: 'steer', strength: -4 },
    });
    const list = checks(ref, steered);
    expect(list.filter((c) => c.category === 'sae').map((c) => [c.path, c.status])).toEqual([
      ['sae.hook.layer', 'differs'],
      ['sae.release', 'differs'],
    ]);
    expect(
      list.filter((c) => c.category === 'intervention').map((c) => [c.path, c.status]),
    ).toEqual([
      ['intervention.strength', 'differs'],
      ['intervention.type', 'differs'],
    ]);
    expect(evaluatedDiffers(list)).toBe(false);
    const both = withSettings(ref, { sae: { release: 'r', hook: { layer: 12 } } });
    expect(statusOf(checks(both, steered), 'sae.release')).toBe('matches');
  });

  it('compares generation and config key by key without the seed; missing is unknown', () => {
    const a = withSettings(ref, {
      generation: { temperature: 0, seed: 1, sampling: { top_p: 0.9 } },
      config: { batch: 8, random_seed: 5 },
    });
    const b = withSettings(cand, {
      generation: { temperature: 0.7, seed: 2 },
      config: { batch: 8, random_seed: 5 },
    });
    const list = checks(a, b);
    expect(list.filter((c) => ['generation', 'config'].includes(c.category))).toEqual([
      {
        path: 'generation.sampling.top_p',
        category: 'generation',
        status: 'unknown',
        reference: 0.9,
        candidate: null,
      },
      {
        path: 'generation.temperature',
        category: 'generation',
        status: 'differs',
        reference: 0,
        candidate: 0.7,
      },
      { path: 'config.batch', category: 'config', status: 'matches', reference: 8, candidate: 8 },
    ]);
    expect(list.find((c) => c.path === 'seed')).toMatchObject({
      status: 'differs',
      reference: 1,
      candidate: 2,
    });
    expect(evaluatedDiffers(list)).toBe(false);
  });

  it('reports a different number of epochs as a config difference', () => {
    const a = withSettings(ref, { config: { epochs: 1, limit: 3 } });
    const b = withSettings(cand, { config: { epochs: 6, limit: 3 } });
    expect(statusOf(checks(a, b), 'config.epochs')).toBe('differs');
    expect(
      statusOf(checks(a, withSettings(cand, { config: { epochs: 1 } })), 'config.epochs'),
    ).toBe('matches');
  });

  it('checks REPS params like config', () => {
    const a = withSettings(ref, { params: { lr: 0.1 } });
    const b = withSettings(cand, { params: { lr: 0.2, epochs: 3 } });
    expect(
      checks(a, b)
        .filter((c) => c.category === 'params')
        .map((c) => [c.path, c.status]),
    ).toEqual([
      ['params.epochs', 'unknown'],
      ['params.lr', 'differs'],
    ]);
  });
});

describe('seedOf', () => {
  const seeded = (generation: object | null, config: object | null) =>
    withSettings(ref, { generation: generation as never, config: config as never });

  it.each([
    [{ seed: 1, random_seed: 2 }, { seed: 3, random_seed: 4 }, 1],
    [{ random_seed: 2 }, { seed: 3, random_seed: 4 }, 2],
    [{ seed: null }, { seed: 3, random_seed: 4 }, 3],
    [{}, { random_seed: 4 }, 4],
    [null, null, undefined],
  ])('generation %j, config %j → %j', (generation, config, seed) => {
    expect(seedOf(seeded(generation, config))).toBe(seed);
  });

  it('is unknown when one run records no seed', () => {
    const unseeded = withSettings(cand, { config: {} });
    expect(statusOf(checks(ref, unseeded), 'seed')).toBe('unknown');
  });
});

describe('code_commit and metric definitions', () => {
  it('compares the code commit', () => {
    expect(statusOf(checks(ref, { ...cand, codeCommit: 'beef' }), 'code_commit')).toBe('differs');
    expect(statusOf(checks(ref, { ...cand, codeCommit: null }), 'code_commit')).toBe('unknown');
  });

  it('checks the definition of each metric logged by either run, not its value', () => {
    const a = makeRun({
      ...ref,
      metrics: { acc: 0.5, rate: 0.1 },
      metricDefinitions: {
        acc: { description: 'Accuracy', example_field: 'correct', unit: null },
        rate: { description: 'Rate' },
        unlogged: { description: 'never logged' },
      },
    });
    const b = makeRun({
      ...cand,
      metrics: { acc: 0.9, extra: 1 },
      metricDefinitions: {
        acc: { example_field: 'correct', description: 'Accuracy' },
        rate: { description: 'Another rate' },
      },
    });
    const list = checks(a, b).filter((c) => c.category === 'metric_definitions');
    expect(list.map((c) => [c.path, c.status])).toEqual([
      ['metric_definitions.acc', 'matches'],
      ['metric_definitions.extra', 'unknown'],
      ['metric_definitions.rate', 'differs'],
    ]);
  });
});

describe('example checks', () => {
  const run = (id: string, ...examples: ReturnType<typeof makeExample>[]) =>
    makeRun({ runId: id, examples });

  it.each([
    ['same ids and inputs', ['a', 'b'], ['b', 'a'], 'matches', 'matches'],
    ['an id on one side', ['a', 'b'], ['a'], 'differs', 'matches'],
    ['no id in common', ['a'], ['b'], 'differs', 'not applicable'],
    ['no examples on one side', ['a'], [], 'unknown', 'not applicable'],
  ])('%s', (_name, left, right, ids, inputs) => {
    const list = checks(
      run('r1', ...left.map((id) => makeExample(id))),
      run('r2', ...right.map((id) => makeExample(id))),
    );
    expect(statusOf(list, 'examples.ids')).toBe(ids);
    expect(statusOf(list, 'examples.inputs')).toBe(inputs);
    expect(list.find((c) => c.path === 'examples.ids')).toMatchObject({
      reference: left.length,
      candidate: right.length,
    });
  });

  it('says inputs differ when a matched id has other input text', () => {
    const list = checks(
      run('r1', makeExample('a'), makeExample('b')),
      run('r2', makeExample('a'), makeExample('b', {}, { input: 'changed' })),
    );
    expect(statusOf(list, 'examples.inputs')).toBe('differs');
    expect(evaluatedDiffers(list)).toBe(true);
  });
});

describe('summary and evaluated_differs', () => {
  it('counts each status, and only model/dataset/examples differences mean a different evaluation', () => {
    const a = withSettings(ref, { sae: { release: 'r' } });
    const b = withSettings(cand, { dataset: { id: 'prompts', revision: 'v1', split: 'val' } });
    const list = checks(a, { ...b, codeCommit: null });
    expect(summarizeChecks(list)).toEqual({
      matches: list.filter((c) => c.status === 'matches').length,
      differs: 2,
      unknown: 1,
      'not applicable': 0,
    });
    expect(evaluatedDiffers(list)).toBe(true);
    const modelOnly = withSettings(cand, { model: { id: 'other', revision: 'rev1' } });
    expect(evaluatedDiffers(checks(ref, modelOnly))).toBe(true);
  });
});
