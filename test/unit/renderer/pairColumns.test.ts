import { createTable, flexRender, getCoreRowModel } from '@tanstack/react-table';
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { pairColumns } from '../../../renderer/features/examples/columns';
import type { PairRow } from '../../../renderer/features/examples/usePairPages';

function pairRow(i: number, over: Partial<PairRow> = {}): PairRow {
  return {
    example_id: `ex-${i}`,
    side: 'both',
    input_mismatch: false,
    output_changed: i % 2 === 0,
    behavior_changed: false,
    classes: { score: 'regressed' },
    values: { score: { reference: 1, candidate: 0 } },
    input: `input ${i}`,
    input_unavailable: null,
    ...over,
  } as PairRow;
}

/** The grid's table as PairTable builds it: over the rows in view, sorted by the server. */
function windowTable(rows: PairRow[], first: number) {
  const table = createTable<PairRow>({
    data: rows,
    columns: pairColumns(['score']),
    getCoreRowModel: getCoreRowModel(),
    getRowId: (_row, i) => String(first + i),
    manualSorting: true,
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
  });
  // As useReactTable does: the table's own defaults, then the state held outside it.
  table.setOptions((options) => ({
    ...options,
    state: { ...table.initialState, sorting: [{ id: 'output_changed', desc: true }] },
  }));
  return table;
}

const cellText = (table: ReturnType<typeof windowTable>, row: number) =>
  table
    .getRowModel()
    .rows[row]!.getVisibleCells()
    .map((cell) =>
      renderToStaticMarkup(
        createElement(Fragment, null, flexRender(cell.column.columnDef.cell, cell.getContext())),
      ),
    );

describe('explorer grid columns', () => {
  it('give every column its header and width, and the sort keys the server knows', () => {
    const table = windowTable([], 0);
    const headers = table.getFlatHeaders();
    expect(headers.map((h) => h.column.columnDef.header)).toEqual([
      'Example',
      'Input',
      'score',
      'Output changed',
      'Behaviour changed',
      'In',
    ]);
    // Widths before the content is measured; the input is the one flexible column.
    expect(headers.map((h) => h.getSize())).toEqual([110, 200, 120, 80, 90, 80]);
    expect(headers.map((h) => !!h.column.columnDef.meta?.flex)).toEqual([
      false,
      true,
      false,
      false,
      false,
      false,
    ]);
    // Every change column sorts: a criterion by its per-example difference, regressions first
    // (a field with no declared direction: the largest rise first).
    expect(headers.map((h) => h.column.columnDef.meta?.sort ?? null)).toEqual([
      { key: 'example_id', firstDescending: false },
      null,
      { key: 'delta', criterion: 'score', firstDescending: true },
      { key: 'output_changed', firstDescending: true },
      { key: 'behavior_changed', firstDescending: true },
      null,
    ]);
    // The order came from the server: the table reports it and leaves the rows as they came.
    expect(headers.map((h) => h.column.getIsSorted())).toEqual([
      false,
      false,
      false,
      'desc',
      false,
      false,
    ]);
  });

  it('hold only the rows in view, identified by their place in the whole list', () => {
    const rows = [pairRow(7), pairRow(8), pairRow(9, { side: 'candidate', input_mismatch: true })];
    const table = windowTable(rows, 4_000);
    expect(table.getRowModel().rows.map((r) => [r.id, r.original])).toEqual([
      ['4000', rows[0]],
      ['4001', rows[1]],
      ['4002', rows[2]],
    ]);
    expect(cellText(table, 0)).toEqual([
      '<span class="mono" title="ex-7">ex-7</span>',
      '<span class="ellipsis">input 7</span>',
      '<span class="class class-regressed" title="regressed: 1 → 0">1 → 0<span class="delta"> (-1)</span></span>',
      'no',
      'no',
      '<span title="in both runs">both</span>',
    ]);
    expect(cellText(table, 2).slice(3)).toEqual([
      '—',
      '—',
      '<span title="in the candidate run only; the input differs between the runs">cand. only ≠</span>',
    ]);
    // The text each sized column is measured by is the text its cell shows.
    const texts = table.getAllLeafColumns().map((c) => c.columnDef.meta?.text?.(rows[2]!) ?? null);
    expect(texts).toEqual(['ex-9', null, '1 → 0', null, null, 'cand. only ≠']);
  });

  it('leave out the opening every input listed shares, and say so on hover', () => {
    const opening = `${'<|start_header_id|>user<|end_header_id|> '.repeat(2)}`;
    const table = windowTable([pairRow(1, { input: `${opening}How far?` }), pairRow(2)], 0);
    table.setOptions((options) => ({ ...options, meta: { inputOpening: opening } }));
    expect(cellText(table, 0)[1]).toBe(
      `<span class="ellipsis" title="Starts with the ${opening.length} characters every input listed starts with, left out here; the detail pane shows the whole input.">… How far?</span>`,
    );
    expect(cellText(table, 1)[1]).toBe('<span class="ellipsis">input 2</span>');
  });

  it('cut a long input to one line of cell text', () => {
    const table = windowTable([pairRow(1, { input: 'x'.repeat(10_000) })], 0);
    expect(cellText(table, 0)[1]!.length).toBeLessThan(400);
  });

  it('cut an input to what a cell of its width can show, counting only what takes room', async () => {
    const { inputChars } = await import('../../../renderer/features/examples/columns');
    const { cutEnd, excerpt } = await import('../../../renderer/features/examples/highlight');
    // ~2.2 px a character at the least, a cell never holds fewer than its width shows.
    expect(inputChars(296)).toBe(136);
    expect(inputChars(200)).toBeGreaterThanOrEqual(200 / 2.2);
    expect(inputChars(2_200)).toBe(1_001);
    const table = windowTable([pairRow(1, { input: 'x'.repeat(1_000) })], 0);
    table.setOptions((options) => ({ ...options, meta: { inputChars: 40 } }));
    expect(cellText(table, 0)[1]).toBe(`<span class="ellipsis">${'x'.repeat(40)}</span>`);
    // A run of white space shows as one space; marks, joiners and hair spaces take no room.
    expect(excerpt(`a${' \n\t'.repeat(50)}b c`, null, 3)).toBe(`a${' \n\t'.repeat(50)}b`);
    expect(excerpt('e\u0301'.repeat(10), null, 4)).toBe('e\u0301'.repeat(4));
    const family = '👨\u200d👩\u200d👧';
    expect(excerpt(family.repeat(5), null, 6)).toBe(family.repeat(2));
    expect(excerpt(`${'\u200a'.repeat(100)}ab`, null, 1)).toBe(`${'\u200a'.repeat(100)}a`);
    expect(cutEnd('short', 0, 300)).toBe(5);
    // After a hit far in: an ellipsis, then the cut from a little before the hit.
    expect(excerpt(`${'w '.repeat(100)}target rest`, /target/g, 10)).toBe(`…${'w '.repeat(5)}`);
  });

  it('say why an input could not be read rather than showing an empty cell', () => {
    const table = windowTable(
      [
        pairRow(1, { input: '', input_unavailable: 'source-changed' }),
        pairRow(2, { input: '', input_unavailable: 'source-missing' }),
      ],
      0,
    );
    const changed = 'Source changed since indexing — re-index the folder to read this text.';
    const missing = 'Source file is gone — its texts were not archived yet.';
    expect(cellText(table, 0)[1]).toBe(
      `<span class="ellipsis cell-unavailable" title="${changed}">${changed}</span>`,
    );
    expect(cellText(table, 1)[1]).toBe(
      `<span class="ellipsis cell-unavailable" title="${missing}">${missing}</span>`,
    );
  });
});

describe('explorer labels and search marks', () => {
  it('names two long conditions by the words that tell them apart', async () => {
    const { shortPair } = await import('../../../shared/labels');
    const sae = 'steering.sae_id=gemma-scope-2b-pt-res-canonical/layer_20/width_16k/canonical';
    expect(
      shortPair(
        `hf/google/gemma-2-2b-it steering.feature_id=none ${sae}`,
        `hf/google/gemma-2-2b-it steering.feature_id=4521 ${sae}`,
      ),
    ).toEqual({
      reference: 'steering.feature_id=none',
      candidate: 'steering.feature_id=4521',
      shared: `hf/google/gemma-2-2b-it … ${sae}`,
    });
    expect(shortPair('baseline', 'steered')).toEqual({
      reference: 'baseline',
      candidate: 'steered',
      shared: '',
    });
  });

  it('marks word prefixes and ids the way the core matches them', async () => {
    const { searchPattern } = await import('../../../renderer/features/examples/highlight');
    const words = searchPattern('napol born')!;
    expect('When was Napoleon born? Unborn.'.match(words)).toEqual(['Napol', 'born']);
    expect(searchPattern('syc-0035', true)!.test('SYC-0035')).toBe(true);
    expect(searchPattern('unknown info', true)!.test('Test unknown information handling')).toBe(
      true,
    );
  });
});
