/**
 * A forest plot of paired differences as an SVG string: one row per comparison that has a 95%
 * interval, a dot at the difference, a line across the interval, a dashed line at zero. A value
 * without an interval is never drawn (a lone dot would look precise): the caller lists it. Pure and dependency-free,
 * so the HTML export stays one self-contained file. Labels are escaped by the caller's escaper.
 */

export interface ForestRow {
  label: string;
  difference: number | null;
  ci95: [number, number] | null;
}

import { formatSigned } from '../../../shared/format';

const WIDTH = 640;
const LABEL_WIDTH = 220;
const RIGHT = 20;
const ROW_HEIGHT = 26;
const TOP = 12;
const AXIS_HEIGHT = 34;

/** Ticks at 1, 2 or 5 × 10^k, about five of them across the domain, as exact decimals. */
function niceTicks(lo: number, hi: number, count = 5): number[] {
  const raw = (hi - lo || 1) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? power * 10;
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const ticks: number[] = [];
  // Integer multiples of the step, rounded: adding steps up would print 0 as 2.8e-17.
  for (let k = Math.ceil(lo / step); k <= Math.floor(hi / step); k++)
    ticks.push(Number((k * step).toFixed(decimals)) || 0);
  return ticks;
}

function domain(rows: ForestRow[]): [number, number] {
  const values = rows.flatMap((r) => [
    ...(r.ci95 ?? []),
    ...(r.difference === null ? [] : [r.difference]),
  ]);
  let lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  const pad = (hi - lo) * 0.06;
  return [lo - pad, hi + pad];
}

const f = (x: number) => x.toFixed(1);

/** The rows a forest plot can draw, and the ones it must list as having no interval. */
export function splitByInterval<T extends { ci95: [number, number] | null }>(
  rows: T[],
): { drawn: (T & { ci95: [number, number] })[]; unplotted: T[] } {
  const drawn = rows.filter((r): r is T & { ci95: [number, number] } => r.ci95 !== null);
  return { drawn, unplotted: rows.filter((r) => r.ci95 === null) };
}

export function forestPlotSvg(
  title: string,
  all: ForestRow[],
  escape: (text: string) => string,
): string {
  const rows = splitByInterval(all).drawn;
  const [lo, hi] = domain(rows);
  const plotWidth = WIDTH - LABEL_WIDTH - RIGHT;
  const x = (v: number) => LABEL_WIDTH + ((v - lo) / (hi - lo)) * plotWidth;
  const height = TOP + rows.length * ROW_HEIGHT + AXIS_HEIGHT;
  const axisY = TOP + rows.length * ROW_HEIGHT + 4;
  const parts: string[] = [
    `<svg class="forest" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escape(title)}">`,
    `<title>${escape(title)}</title>`,
    `<line x1="${f(x(0))}" y1="${TOP - 4}" x2="${f(x(0))}" y2="${axisY}" class="zero"/>`,
    `<line x1="${LABEL_WIDTH}" y1="${axisY}" x2="${WIDTH - RIGHT}" y2="${axisY}" class="axis"/>`,
  ];
  for (const tick of niceTicks(lo, hi)) {
    parts.push(
      `<line x1="${f(x(tick))}" y1="${axisY}" x2="${f(x(tick))}" y2="${axisY + 5}" class="axis"/>`,
      `<text x="${f(x(tick))}" y="${axisY + 18}" text-anchor="middle">${escape(formatSigned(tick, 6))}</text>`,
    );
  }
  rows.forEach((row, i) => {
    const y = TOP + i * ROW_HEIGHT + ROW_HEIGHT / 2;
    parts.push(
      `<text x="${LABEL_WIDTH - 10}" y="${f(y + 4)}" text-anchor="end">${escape(row.label)}</text>`,
    );
    const [a, b] = row.ci95.map(x);
    parts.push(
      `<line x1="${f(a!)}" y1="${f(y)}" x2="${f(b!)}" y2="${f(y)}" class="ci"/>`,
      `<line x1="${f(a!)}" y1="${f(y - 5)}" x2="${f(a!)}" y2="${f(y + 5)}" class="ci"/>`,
      `<line x1="${f(b!)}" y1="${f(y - 5)}" x2="${f(b!)}" y2="${f(y + 5)}" class="ci"/>`,
    );
    if (row.difference !== null)
      parts.push(`<circle cx="${f(x(row.difference))}" cy="${f(y)}" r="4.5" class="point"/>`);
  });
  parts.push('</svg>');
  return parts.join('');
}
