import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear } from '@visx/scale';
import { Area, Line, LinePath } from '@visx/shape';
import type { SeriesPoint } from '../../shared/compare/types';
import { interval, signed } from '../format';
import { TickLabel } from './TickLabel';

const margin = { top: 12, right: 24, bottom: 36, left: 56 };

type Plotted = SeriesPoint & { level: number; difference: number };

/**
 * Difference from the reference against the series level, with the 95 % interval as a band.
 * Levels whose interval excludes 0 are drawn filled; the others hollow.
 */
export function SeriesCurve({
  points,
  width,
  height = 220,
  label,
}: {
  points: SeriesPoint[];
  width: number;
  height?: number;
  label: string;
}) {
  const plotted = points
    .filter((p): p is Plotted => p.level !== null && p.difference !== null)
    .sort((a, b) => a.level - b.level);
  if (plotted.length === 0) return <p className="muted">No levels with a difference to plot.</p>;
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const levels = plotted.map((p) => p.level);
  const ys = plotted.flatMap((p) => [p.difference, ...(p.ci95 ?? [])]);
  const span = Math.max(...ys.map(Math.abs), 0.05) * 1.15;
  const x = scaleLinear({
    domain: [Math.min(...levels), Math.max(...levels)],
    range: [0, innerW],
    nice: true,
  });
  const y = scaleLinear({ domain: [-span, span], range: [innerH, 0], nice: true });
  const banded = plotted.filter((p) => p.ci95);
  return (
    <svg width={width} height={height} role="img" aria-label={label}>
      <Group left={margin.left} top={margin.top}>
        <Line from={{ x: 0, y: y(0) }} to={{ x: innerW, y: y(0) }} className="zero-line" />
        <Area
          data={banded}
          x={(p) => x(p.level)}
          y0={(p) => y(p.ci95![0])}
          y1={(p) => y(p.ci95![1])}
          className="ci-band"
        />
        <LinePath
          data={plotted}
          x={(p) => x(p.level)}
          y={(p) => y(p.difference)}
          className="series-line"
          strokeWidth={2}
        />
        {plotted.map((p) => {
          const excludesZero = p.ci95 !== null && (p.ci95[0] > 0 || p.ci95[1] < 0);
          return (
            <circle
              key={p.condition}
              cx={x(p.level)}
              cy={y(p.difference)}
              r={5}
              className={excludesZero ? 'point' : 'point hollow'}
            >
              <title>{`${p.condition}: ${signed(p.difference)} ${interval(p.ci95)}${p.n !== null ? `, n = ${p.n}` : ''}${excludesZero ? ' — interval excludes 0' : ''}`}</title>
            </circle>
          );
        })}
        <AxisBottom
          top={innerH}
          scale={x}
          numTicks={Math.min(8, levels.length + 2)}
          axisClassName="axis"
          tickComponent={TickLabel}
          tickLabelProps={{ className: 'tick-label', textAnchor: 'middle' }}
        />
        <AxisLeft
          scale={y}
          numTicks={5}
          tickFormat={(v) => signed(Number(v), 2)}
          axisClassName="axis"
          tickComponent={TickLabel}
          tickLabelProps={{ className: 'tick-label', textAnchor: 'end', dx: -4, dy: 3 }}
        />
      </Group>
    </svg>
  );
}
