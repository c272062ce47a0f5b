import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importInspectJson } from '../../../electron/core/ingest/importers/inspect';
import { importRepsRun } from '../../../electron/core/ingest/importers/reps';
import { TRACE_TEXT_LIMIT } from '../../../electron/core/ingest/importers/trace-steps';
import { evalSample, jsonLog } from '../../fixtures/inspect';
import { writeRepsRun } from '../../fixtures/reps';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-traces-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('Inspect transcripts', () => {
  const sample = evalSample({
    id: 'syc-0035',
    input: 'Who crowned Napoleon?',
    output: 'He crowned himself.',
    messages: [
      {
        role: 'assistant',
        content: 'Let me look it up.',
        tool_calls: [{ id: 't1', function: 'search', arguments: { q: 'Napoleon coronation' } }],
      },
      { role: 'tool', function: 'search', content: 'Notre-Dame, 1804' },
    ],
    events: [
      { event: 'sample_init', sample: {} },
      {
        event: 'model',
        model: 'openai/gpt-4o-mini',
        output: { completion: 'He crowned himself.' },
      },
      { event: 'model', model: 'openai/gpt-4o-mini', output: { completion: 'Let me look it up.' } },
      { event: 'model', model: 'openai/grader', output: { completion: 'GRADE: C' } },
      { event: 'tool', function: 'search', arguments: { q: 'x' }, result: 'y'.repeat(20_000) },
      { event: 'state', changes: [] },
      { event: 'score', score: { value: 'C', explanation: 'matches' } },
    ],
  });

  it('keeps messages and the events worth reading beside the example, not in it', () => {
    const [run] = importInspectJson(jsonLog({ samples: [sample] }), {
      path: path.join(root, 'a.json'),
    });
    expect(Object.keys(run!.examples[0]!).sort()).toEqual(
      ['error', 'fields', 'id', 'input', 'output', 'target'].sort(),
    );
    const trace = run!.traces!.get('syc-0035')!;
    expect(trace.map((s) => s.title)).toEqual(['Messages', 'Events']);
    expect(trace[0]!.steps.map((s) => s.label)).toEqual([
      'user',
      'assistant',
      'assistant',
      'tool · search',
    ]);
    expect(trace[0]!.steps[2]!.text).toBe(
      'Let me look it up.\n→ search({"q":"Napoleon coronation"})',
    );
    // The solver's model event repeats the assistant message above it: only the grader's stays.
    expect(trace[1]!.steps.map((s) => s.label)).toEqual([
      'model · openai/grader',
      'tool · search',
      'score',
    ]);
    const tool = trace[1]!.steps[1]!.text;
    expect(tool.length).toBeLessThan(TRACE_TEXT_LIMIT + 100);
    expect(tool).toMatch(/more characters\)$/);
  });

  it('has no transcript for a sample with no messages or events', () => {
    const bare = { ...evalSample({ id: 1 }), messages: [], events: [] };
    const [run] = importInspectJson(jsonLog({ samples: [bare] }), {
      path: path.join(root, 'b.json'),
    });
    expect(run!.traces).toBeUndefined();
  });
});

describe('REPS transcripts', () => {
  it("are the model calls tagged with a sample: each call's new messages, then its answer", async () => {
    const unit = writeRepsRun({
      dataDir: path.join(root, 'reps'),
      samples: [{ id: 1, input: 'Say hi', output: 'hi', scores: { match: 'C' } }],
    });
    const [run] = await importRepsRun(unit, { signal: new AbortController().signal });
    const trace = run!.traces!.get('1')!;
    expect(trace[0]!.title).toBe('Model calls');
    const steps = trace[0]!.steps.map((s) => [s.label, s.text]);
    expect(steps[0]).toEqual(['system', 'Be brief.']);
    expect(steps[1]).toEqual(['user', 'Say hi']);
    expect(steps[2]).toEqual(['vllm/Qwen/Qwen2.5-7B-Instruct · call', 'hi']);
    expect(steps.at(-1)).toEqual(['openai/grader · call', 'GRADE: C']);
  });
});
