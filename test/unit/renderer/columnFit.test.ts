import { describe, expect, it } from 'vitest';
import { breakPieces } from '../../../renderer/components/BreakableText';
import {
  CELL_PADDING,
  columnsOutOfView,
  contentWidth,
  fitWidths,
  leastWidth,
  revealAfter,
  revealBefore,
  SORT_ARROW,
  twoLineWidth,
} from '../../../renderer/features/examples/columnFit';
import {
  clampTable,
  defaultTable,
  MIN_DETAIL,
  MIN_TABLE,
  readShare,
  SPLITTER,
  tableBounds,
  tableWidth,
} from '../../../renderer/features/examples/explorerSplit';

/** Ten pixels a character: widths read as character counts. */
const chars = (text: string) => text.length * 10;
const measure = { header: chars, cell: chars };

describe('explorer column widths', () => {
  it('break a header after spaces and punctuation, and wrap it onto two lines at its best break', () => {
    expect(breakPieces('Output changed')).toEqual(['Output ', 'changed']);
    expect(breakPieces('refusal_rate.v2')).toEqual(['refusal_', 'rate.', 'v2']);
    expect(breakPieces('In')).toEqual(['In']);
    expect(breakPieces('acc_norm,none')).toEqual(['acc_', 'norm,', 'none']);
    expect(breakPieces('steering_strength@-8.0')).toEqual([
      'steering_',
      'strength@',
      '-',
      '8.',
      '0',
    ]);
    // "Behaviour" over "changed": the wider line is "Behaviour", the trailing space not counted.
    expect(twoLineWidth('Behaviour changed', chars)).toBe(90);
    expect(twoLineWidth('refusal_rate_judge', chars)).toBe(100);
    expect(twoLineWidth('In', chars)).toBe(20);
  });

  it('give a column the width of its widest cell or header, within its bounds', () => {
    const column = {
      header: 'Output changed',
      sortable: true,
      texts: ['yes', 'no'],
      min: 40,
      max: 200,
    };
    expect(contentWidth(column, measure)).toBe(70 + SORT_ARROW + CELL_PADDING);
    expect(contentWidth({ ...column, texts: ['true → false (-1)'] }, measure)).toBe(
      170 + CELL_PADDING,
    );
    expect(contentWidth({ ...column, texts: ['x'.repeat(100)] }, measure)).toBe(200);
    expect(contentWidth({ ...column, header: 'In', sortable: false, texts: [] }, measure)).toBe(40);
  });

  it('let the flexible column take the room the others leave, never less than its least', () => {
    const columns = [
      { width: 100, flex: false },
      { width: 200, flex: true },
      { width: 120, flex: false },
    ];
    expect(leastWidth(columns)).toBe(420);
    expect(fitWidths(columns, 800)).toEqual([100, 580, 120]);
    expect(fitWidths(columns, 300)).toEqual([100, 200, 120]);
    expect(fitWidths(columns, 0)).toEqual([100, 200, 120]);
    expect(fitWidths([{ width: 50, flex: false }], 800)).toEqual([50]);
  });

  it('count the columns left and right of the view, or under the pinned first column', () => {
    const widths = [100, 200, 100, 100, 100];
    expect(columnsOutOfView(widths, 0, 600)).toEqual({ before: 0, after: 0 });
    expect(columnsOutOfView(widths, 0, 600.5)).toEqual({ before: 0, after: 0 });
    // A column cut by the edge counts as out of view.
    expect(columnsOutOfView(widths, 0, 350)).toEqual({ before: 0, after: 3 });
    // Scrolled by 150, the input slides under the pinned id column: it is out of view too.
    expect(columnsOutOfView(widths, 150, 300)).toEqual({ before: 1, after: 2 });
    expect(columnsOutOfView(widths, 300, 300)).toEqual({ before: 2, after: 0 });
    expect(columnsOutOfView([], 0, 300)).toEqual({ before: 0, after: 0 });
    expect(columnsOutOfView([100], 0, 50)).toEqual({ before: 0, after: 0 });
  });

  it('scroll the first column out of view on the right to the pinned column, or to the end', () => {
    const widths = [100, 200, 100, 100, 100];
    expect(revealAfter(widths, 0, 350)).toBe(200);
    // The input is wider than the room beside the id: its right edge comes in, then the next.
    expect(revealAfter(widths, 0, 250)).toBe(50);
    expect(revealAfter(widths, 50, 250)).toBe(200);
    // Nothing out of view on the right: no scroll.
    expect(revealAfter(widths, 250, 350)).toBe(250);
  });

  it('scroll the nearest column out of view on the left to the right edge', () => {
    const widths = [100, 200, 100, 100, 100];
    expect(revealBefore(widths, 250, 350)).toBe(50);
    expect(revealBefore(widths, 50, 350)).toBe(0);
    expect(revealBefore(widths, 300, 250)).toBe(150);
    // A column wider than the room beside the id comes in by its left edge.
    expect(revealBefore([100, 100, 500], 400, 300)).toBe(100);
    expect(revealBefore([100, 500, 100], 300, 400)).toBe(0);
    expect(revealBefore(widths, 0, 250)).toBe(0);
  });
});

describe('explorer split', () => {
  it('keeps each pane at its least, and halves a window too narrow for both', () => {
    expect(tableBounds(1000)).toEqual({ min: MIN_TABLE, max: 1000 - SPLITTER - MIN_DETAIL });
    expect(tableBounds(500)).toEqual({ min: (500 - SPLITTER) / 2, max: (500 - SPLITTER) / 2 });
    expect(clampTable(100, 1000)).toBe(MIN_TABLE);
    expect(clampTable(900, 1000)).toBe(1000 - SPLITTER - MIN_DETAIL);
  });

  it('gives the table by default what its columns need, between half and two thirds', () => {
    const total = 1252;
    const room = total - SPLITTER;
    expect(defaultTable(800, total)).toBe(800);
    expect(defaultTable(300, total)).toBe(Math.round(room / 2));
    expect(defaultTable(2000, total)).toBe(Math.round(room * 0.66));
    // At 1024 px the detail keeps its least.
    expect(defaultTable(2000, 836)).toBe(836 - SPLITTER - MIN_DETAIL);
  });

  it('keeps a share set by the researcher, within the bounds, and ignores a stored share that is not one', () => {
    expect(tableWidth(0.5, 800, 1007)).toBe(500);
    expect(tableWidth(0.99, 800, 1007)).toBe(1000 - MIN_DETAIL);
    expect(tableWidth(null, 800, 1252)).toBe(800);
    expect(readShare('0.42')).toBe(0.42);
    for (const bad of [null, '', 'x', '0', '1', '-0.2', 'NaN']) expect(readShare(bad)).toBeNull();
  });
});
