import { describe, expect, it } from 'vitest';
import { conditionNames, type RunForNaming } from '../../../electron/core/conditions/auto-names';

function run(id: string, settings: Record<string, unknown>, extra: Partial<RunForNaming> = {}) {
  return {
    id,
    format: 'inspect',
    condition: 'openai/gpt-4o',
    settings: JSON.stringify({ model: { id: 'openai/gpt-4o' }, ...settings }),
    codeCommit: null,
    sortTime: id,
    ...extra,
  } satisfies RunForNaming;
}

describe('condition names from what differs', () => {
  it('keeps the importer name for runs whose settings are equal: replicates, one condition', () => {
    const names = conditionNames([
      run('a', { generation: { temperature: 0 } }),
      run('b', { generation: { temperature: 0 } }),
    ]);
    expect([...names.values()]).toEqual(['openai/gpt-4o', 'openai/gpt-4o']);
  });

  it('names two runs of one model by the setting that differs: code revision, batch size', () => {
    const names = conditionNames([
      run('a', {}, { codeCommit: 'bb8354671e0a2c44e9d1f7b3a6c5d4e3f2a1b0c9' }),
      run('b', {}, { codeCommit: 'de1d065be3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8' }),
      run('c', { config: { batch_size: 8 } }, { format: 'lm-eval', condition: 'llama' }),
      run('d', { config: { batch_size: 1 } }, { format: 'lm-eval', condition: 'llama' }),
    ]);
    expect(names.get('a')).toBe('openai/gpt-4o revision=bb83546');
    expect(names.get('b')).toBe('openai/gpt-4o revision=de1d065');
    expect(names.get('c')).toBe('llama batch_size=8');
    expect(names.get('d')).toBe('llama batch_size=1');
  });

  it('leaves out keys an older writer does not record when recorded keys already tell runs apart', () => {
    const names = conditionNames([
      run('old', { config: { limit: 10 } }, { codeCommit: 'aaaaaaa' }),
      run('new', { config: { limit: 10, fail_on_error: true } }, { codeCommit: 'bbbbbbb' }),
    ]);
    expect(names.get('old')).toBe('openai/gpt-4o revision=aaaaaaa');
    expect(names.get('new')).toBe('openai/gpt-4o revision=bbbbbbb');
  });

  it('uses a key only one run records when nothing else tells them apart', () => {
    const names = conditionNames([run('a', {}), run('b', { config: { limit: 3 } })]);
    expect(names.get('a')).toBe('openai/gpt-4o limit=none');
    expect(names.get('b')).toBe('openai/gpt-4o limit=3');
  });

  it('disambiguates equal last segments with more of the path', () => {
    const names = conditionNames([
      run('a', { generation: { seed: 1 }, config: { seed: 1 } }),
      run('b', { generation: { seed: 2 }, config: { seed: 3 } }),
    ]);
    expect(names.get('a')).toBe('openai/gpt-4o config.seed=1 generation.seed=1');
    expect(names.get('b')).toBe('openai/gpt-4o config.seed=3 generation.seed=2');
  });

  it('keeps the names of formats that name their conditions (MechLens, REPS, JSONL)', () => {
    for (const format of ['mechlens', 'reps', 'jsonl', 'csv']) {
      const names = conditionNames([
        run('a', { generation: { temperature: 0 } }, { format, condition: 'steer' }),
        run('b', { generation: { temperature: 1 } }, { format, condition: 'steer' }),
      ]);
      expect([...names.values()]).toEqual(['steer', 'steer']);
    }
  });

  it('gives every differing group a distinct name even when values clip alike', () => {
    const long = 'x'.repeat(40);
    const names = conditionNames([
      run('a', { config: { prompt: `${long}1` } }),
      run('b', { config: { prompt: `${long}2` } }),
    ]);
    expect(new Set(names.values()).size).toBe(2);
  });
});
