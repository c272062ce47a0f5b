import type { VisibilityState } from '@tanstack/react-table';
import { useState } from 'react';
import { contentWidth, type FitColumn, type TextMeasure } from './columnFit';
import { columnId, type PairColumn } from './columns';
import type { RowPages } from './rowPages';
import type { PairRow } from './usePairPages';

/** Rows whose cells are measured: the first page is a fair sample and costs a few ms. */
const SAMPLE = 200;

let canvas: HTMLCanvasElement | null = null;

/**
 * Text widths as the grid draws them, measured on a canvas in the fonts the page resolved
 * (the header's bold 12 px, the cells' 13 px, the ids' monospace 12 px).
 */
function textMeasure(mono: boolean): TextMeasure {
  canvas ??= document.createElement('canvas');
  const context = canvas.getContext('2d');
  const root = getComputedStyle(document.documentElement);
  const sans = getComputedStyle(document.body).fontFamily;
  const monoFamily = root.getPropertyValue('--mono').trim() || 'monospace';
  const width = (font: string) => (text: string) => {
    if (!context) return text.length * 8;
    context.font = font;
    return context.measureText(text).width;
  };
  return {
    header: width(`600 12px ${sans}`),
    cell: mono ? width(`12px ${monoFamily}`) : width(`13px ${sans}`),
  };
}

export interface SizedColumn extends FitColumn {
  id: string;
}

/** The visible columns, in order, each with the width its header and content need. */
function measureColumns(
  columns: readonly PairColumn[],
  hidden: VisibilityState,
  rows: readonly PairRow[],
): SizedColumn[] {
  return columns
    .filter((c) => hidden[columnId(c)] !== false)
    .map((c) => {
      const meta = c.meta;
      const id = columnId(c);
      const size = c.size ?? 120;
      if (meta?.flex) return { id, width: size, flex: true };
      const texts = [...(meta?.widest ?? []), ...(meta?.text ? rows.map(meta.text) : [])];
      const width = contentWidth(
        {
          header: typeof c.header === 'string' ? c.header : id,
          sortable: !!meta?.sort,
          texts,
          min: c.minSize ?? size,
          max: c.maxSize ?? size,
        },
        textMeasure(!!meta?.mono),
      );
      return { id, width, flex: false };
    });
}

/**
 * The grid's columns sized to their content. Cells are measured once per pair and set of
 * columns, on the first rows that arrive: a new sort or filter keeps the widths, so the columns
 * do not jump under the researcher's eyes.
 */
export function useColumnWidths(
  columns: readonly PairColumn[],
  hidden: VisibilityState,
  rows: RowPages<PairRow>,
  pair: number,
): SizedColumn[] {
  const stamp = JSON.stringify([pair, columns.map(columnId), hidden, rows.length > 0]);
  const [measured, setMeasured] = useState<{ stamp: string; columns: SizedColumn[] } | null>(null);
  if (measured?.stamp === stamp) return measured.columns;
  // Measured while rendering, as soon as what they depend on changes (React keeps the state
  // set here and renders again at once); `columns` alone changes with the search text's marks.
  const next = { stamp, columns: measureColumns(columns, hidden, rows.slice(0, SAMPLE)) };
  setMeasured(next);
  return next.columns;
}
