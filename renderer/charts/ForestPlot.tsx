import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Line } from '@visx/shape';
import type { Verdict } from '../../shared/compare/types';
import { interval, signed } from '../format';
import { TickLabel } from './TickLabel';

export interface ForestRow {
  label: string;
  difference: number | null;
  ci95: [number, number] | null;
  /** Whole interval on the expected side (consistent) etc., for colour. */
  verdict: Verdict | null;
  /** Why there is no interval, when there is none ("no example field", "0 pairs"). */
  why?: string;
}

type Drawn = ForestRow & { ci95: [number, number] };

const base = { top: 8, right: 96, bottom: 30 };
const rowHeight = 28;

/** The plot's height for this many rows, so a placeholder can hold its place. */
export function forestPlotHeight(rows: number): number {
  return base.top + base.bottom + rows * rowHeight;
}

/**
 * Paired differences with their 95 % intervals, one row per comparison that has one; the zero
 * line and, when the experiment has replicate reference runs, the run-to-run noise band behind
 * them. A value without an interval is never drawn as a dot (it would look precise under a
 * caption promising intervals): it is listed under the plot as text.
 */
export function ForestPlot({
  rows: all,
  width,
  noise,
}: {
  rows: ForestRow[];
  width: number;
  noise?: [number, number] | null;
}) {
  const rows = all.filter((r): r is Drawn => r.ci95 !== null);
  const unplotted = all.filter((r) => r.ci95 === null);
  return (
    <div className="forest">
      {rows.length > 0 ? <Plot rows={rows} width={width} noise={noise ?? null} /> : null}
      {unplotted.length > 0 ? (
        <ul className="no-interval muted small" aria-label="Comparisons without an interval">
          {unplotted.map((r) => (
            <li key={r.label}>
              <span className="ellipsis" title={r.label}>
                {r.label}
              </span>
              : {r.difference === null ? 'no difference' : signed(r.difference)} — no interval
              {r.why ? ` (${r.why})` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

type XScale = ReturnType<typeof scaleLinear<number>>;
type YScale = ReturnType<typeof scaleBand<string>>;

/** A label cut to `fits` characters, its end an ellipsis. */
function cut(label: string, fits: number): string {
  return label.length > fits ? `${label.slice(0, fits - 1)}…` : label;
}

/** Label margin, how many label characters fit in it, and the two scales. */
function layout(rows: Drawn[], width: number, noise: [number, number] | null) {
  // Room for the longest label, within reason: long condition names are not cut off.
  const longest = Math.max(0, ...rows.map((r) => r.label.length));
  const margin = {
    ...base,
    left: Math.min(Math.max(140, longest * 7 + 16), Math.floor(width * 0.45)),
  };
  // About 7 px a character at this size: a longer label is cut, its full text on hover.
  const fits = Math.max(8, Math.floor((margin.left - 16) / 7));
  const values = rows
    .flatMap((r) => [r.difference, ...r.ci95])
    .filter((v): v is number => v !== null);
  if (noise) values.push(...noise);
  const extent = Math.max(0.05, ...values.map(Math.abs)) * 1.1;
  const x = scaleLinear({
    domain: [-extent, extent],
    range: [0, width - margin.left - margin.right],
    nice: true,
  });
  const y = scaleBand({
    domain: rows.map((r) => r.label),
    range: [0, rows.length * rowHeight],
    padding: 0.3,
  });
  return { margin, fits, x, y };
}

/** One comparison: its label, interval, point and value, coloured by its verdict. */
function ForestMark({
  row,
  x,
  y,
  fits,
  valueX,
}: {
  row: Drawn;
  x: XScale;
  y: YScale;
  fits: number;
  /** Where the value is written, right of the plot. */
  valueX: number;
}) {
  const cy = (y(row.label) ?? 0) + y.bandwidth() / 2;
  return (
    <g className={`forest-row verdict-${row.verdict ?? 'none'}`}>
      <title>{`${row.label}: ${signed(row.difference)} ${interval(row.ci95)}`}</title>
      <text x={-10} y={cy} textAnchor="end" dominantBaseline="middle" className="axis-label">
        {cut(row.label, fits)}
      </text>
      <Line
        from={{ x: x(row.ci95[0]), y: cy }}
        to={{ x: x(row.ci95[1]), y: cy }}
        className="ci-line"
        strokeWidth={2}
      />
      {row.difference !== null ? (
        <circle cx={x(row.difference)} cy={cy} r={4.5} className="point" />
      ) : null}
      <text x={valueX} y={cy} dominantBaseline="middle" className="value-label">
        {signed(row.difference)}
      </text>
    </g>
  );
}

function Plot({
  rows,
  width,
  noise,
}: {
  rows: Drawn[];
  width: number;
  noise: [number, number] | null;
}) {
  const { margin, fits, x, y } = layout(rows, width, noise);
  const bottom = rows.length * rowHeight;
  return (
    <svg
      width={width}
      height={forestPlotHeight(rows.length)}
      role="img"
      aria-label="Forest plot of paired differences with 95% intervals"
    >
      <Group left={margin.left} top={margin.top}>
        {noise ? (
          <rect
            x={x(noise[0])}
            width={Math.max(1, x(noise[1]) - x(noise[0]))}
            y={0}
            height={bottom}
            className="noise-band"
          >
            <title>
              Run-to-run noise: the difference between two reference runs (95 % interval)
            </title>
          </rect>
        ) : null}
        <Line from={{ x: x(0), y: 0 }} to={{ x: x(0), y: bottom }} className="zero-line" />
        {rows.map((row) => (
          <ForestMark
            key={row.label}
            row={row}
            x={x}
            y={y}
            fits={fits}
            valueX={width - margin.left - margin.right + 8}
          />
        ))}
        <AxisBottom
          top={bottom}
          scale={x}
          numTicks={7}
          tickFormat={(v) => signed(Number(v), 2)}
          axisClassName="axis"
          tickComponent={TickLabel}
          tickLabelProps={{ className: 'tick-label', textAnchor: 'middle' }}
        />
      </Group>
    </svg>
  );
}
