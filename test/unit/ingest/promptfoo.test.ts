import { describe, expect, it } from 'vitest';
import {
  importPromptfoo,
  isPromptfooOutput,
} from '../../../electron/core/ingest/importers/promptfoo';
import { ImportProblem } from '../../../electron/core/ingest/types';
import { promptfooOutput } from '../../fixtures/formats';

const src = { path: '/evals/riddles/output.json' };
type Summary = { results: Record<string, unknown>[]; prompts: Record<string, unknown>[] };
const summaryOf = (output: Record<string, unknown>) => output.results as Summary;

describe('isPromptfooOutput', () => {
  it('needs results.version 2 or 3 and a results list of promptIdx entries', () => {
    expect(isPromptfooOutput(promptfooOutput())).toBe(true);
    expect(isPromptfooOutput({ results: { version: 3, results: [] } })).toBe(true);
    expect(isPromptfooOutput({ results: { version: 1, results: [] } })).toBe(false);
    expect(isPromptfooOutput({ results: { version: 3, results: [{ id: 1 }] } })).toBe(false);
    expect(isPromptfooOutput({ results: [] })).toBe(false);
  });
});

describe('importPromptfoo', () => {
  it('makes one run per prompt × provider column', () => {
    const runs = importPromptfoo(promptfooOutput(), src);
    expect(runs.map((r) => r.condition.name)).toEqual(['openai:model-a', 'candidate']);
    expect(new Set(runs.map((r) => r.runId)).size).toBe(2);
    const [first] = runs;
    expect(first).toMatchObject({
      format: 'promptfoo',
      formatVersion: '3',
      project: 'riddles',
      experiment: { name: 'Fixture eval' },
      startedAt: '2026-09-18T08:30:00.000Z',
      metrics: {
        testPassCount: 1,
        pass_rate: 0.5,
        'tokenUsage/total': 10,
        'namedScores/accuracy': 1,
      },
      metricDefinitions: { pass_rate: { example_field: 'pass', direction: 'higher_is_better' } },
      provenance: {
        producer: { name: 'promptfoo', version: '0.118.10' },
        eval_id: 'eval-abc-2026-09-18T08:30:00',
      },
    });
    expect(first?.settings.model).toEqual({ id: 'openai:model-a' });
    expect(first?.examples[1]).toEqual({
      id: 'france',
      input: 'Answer: capital of France',
      output: 'openai:model-a says capital of France',
      fields: { accuracy: 0, pass: false, score: 0 },
      target: null,
      error: null,
    });
  });

  it('identifies a test by its description, else by a hash of its vars that ignores key order', () => {
    const a = importPromptfoo(promptfooOutput({ tests: [{ vars: { q: 'x', r: 'y' } }] }), src);
    const b = importPromptfoo(promptfooOutput({ tests: [{ vars: { r: 'y', q: 'x' } }] }), src);
    expect(a[0]?.examples[0]?.id).toMatch(/^vars-[0-9a-f]{12}$/);
    expect(a[0]?.examples[0]?.id).toBe(b[0]?.examples[0]?.id);
  });

  it('numbers repeated tests instead of dropping them', () => {
    const runs = importPromptfoo(
      promptfooOutput({ tests: [{ vars: { q: 'same' } }, { vars: { q: 'same' } }] }),
      src,
    );
    const ids = runs[0]!.examples.map((e) => e.id);
    expect(ids[1]).toBe(`${ids[0]}#2`);
    expect(runs[0]!.warnings[0]).toMatch(/more than once/);
  });

  it('keeps provider errors as example errors, but not failed assertions', () => {
    const output = promptfooOutput();
    const result = summaryOf(output).results[0]!;
    Object.assign(result, { failureReason: 2, error: 'API rate limit', response: undefined });
    const example = importPromptfoo(output, src)[0]!.examples[0]!;
    expect(example.error).toBe('API rate limit');
    expect(example.output).toBe('');
    expect(importPromptfoo(promptfooOutput(), src)[0]!.examples[1]!.error).toBeNull();
  });

  it('adds the prompt to the condition name when the file has several prompts', () => {
    const output = promptfooOutput({ providers: [{ id: 'p' }, { id: 'p' }] });
    const summary = summaryOf(output);
    Object.assign(summary.prompts[1]!, { id: 'prompt-2', label: 'Be brief: {{q}}' });
    const runs = importPromptfoo(output, src);
    expect(runs.map((r) => r.condition.name)).toEqual(['p | Answer: {{q}}', 'p | Be brief: {{q}}']);
  });

  it('reads version 2 files, whose prompts are in the table head', () => {
    const output = promptfooOutput({ evalId: null });
    const summary = summaryOf(output) as unknown as Record<string, unknown>;
    summary.version = 2;
    summary.table = { head: { prompts: summary.prompts } };
    delete summary.prompts;
    const runs = importPromptfoo(output, src);
    expect(runs).toHaveLength(2);
    expect(runs[0]!.metrics.pass_rate).toBe(0.5);
    expect(runs[0]!.experiment!.id).toMatch(/^promptfoo:[0-9a-f]{16}$/);
  });

  it('makes separate evals of the same tests one experiment, and other tests another', () => {
    const first = importPromptfoo(promptfooOutput({ evalId: 'eval-1' }), src);
    const rerun = importPromptfoo(promptfooOutput({ evalId: 'eval-2' }), {
      path: '/elsewhere/output.json',
    });
    expect(first[0]!.experiment!.id).toMatch(/^promptfoo:[0-9a-f]{16}$/);
    expect(rerun[0]!.experiment!.id).toBe(first[0]!.experiment!.id);
    expect(rerun[0]!.runId).not.toBe(first[0]!.runId);

    const changed = promptfooOutput({ evalId: 'eval-3' });
    const testCase = summaryOf(changed).results[0]!.testCase as Record<string, unknown>;
    testCase.assert = [{ type: 'contains', value: 'y' }];
    const other = importPromptfoo(changed, src);
    expect(other[0]!.experiment!.id).not.toBe(first[0]!.experiment!.id);
  });

  it('rejects a result that is not an object', () => {
    const output = promptfooOutput();
    summaryOf(output).results.push(42 as unknown as Record<string, unknown>);
    expect(() => importPromptfoo(output, src)).toThrow(ImportProblem);
    expect(() => importPromptfoo(output, src)).toThrow(
      'results.results[4] should be an object, but it is a number (42)',
    );
  });
});
