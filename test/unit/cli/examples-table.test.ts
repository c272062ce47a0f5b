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
});
