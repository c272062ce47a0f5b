import { describe, expect, it } from 'vitest';
import { examplesTable } from '../../../electron/cli/examples-table';
import type { RequestOutput } from '../../../shared/contract';

type Row = RequestOutput<'examples:page'>['rows'][number];

function row(id: string, over: Partial<Row> = {}): Row {
  return {
    example_id: id,
    side: 'both',
    input_mismatch: false,
    output_changed: false,
    behavior_changed: false,
    classes: {},
    values: {},
    input: `the input of ${id}`,
    input_unavailable: null,
    ...over,
  };
}

describe('pairwise examples table', () => {
  it('says why an input could not be read instead of leaving the column blank', () => {
    const text = examplesTable(
      {
        rows: [
          row('a'),
          row('b', { input: '', input_unavailable: 'source-changed' }),
          row('c', { input: '', input_unavailable: 'source-missing' }),
        ],
        next: null,
        total: 3,
      },
      [],
      'steer vs reference',
    );
    const lines = text.split('\n');
    expect(lines[1]).toMatch(/^a .*the input of a$/);
    expect(lines[2]).toMatch(/^b .*\(source changed since indexing: re-index it\)$/);
    expect(lines[3]).toMatch(/^c .*\(source file gone, texts not archived\)$/);
  });

  it('leaves out the opening every input shown shares, and says what it was under the table', () => {
    const template = '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n';
    const text = examplesTable(
      {
        rows: [
          row('0', { input: `${template}Tom has 3 apples.` }),
          row('1', { input: `${template}Ann\nhas 2.` }),
          row('2', { input: '', input_unavailable: 'source-missing' }),
        ],
        next: null,
        total: 3,
      },
      [],
      'steer vs reference',
    );
    const lines = text.split('\n');
    expect(lines[1]).toMatch(/^0 .* … Tom has 3 apples\.$/);
    expect(lines[2]).toMatch(/^1 .* … Ann has 2\.$/);
    expect(lines[3]).toMatch(/\(source file gone, texts not archived\)$/);
    expect(lines[5]).toBe(
      `input: after the ${template.length} characters every input shown starts with: "<|begin_of_text|><|start_header_id|>user<|end_header_id|>"`,
    );
  });
});
