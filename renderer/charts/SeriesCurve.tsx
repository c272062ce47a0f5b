import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear } from '@visx/scale';
import { Area, Line, LinePath } from '@visx/shape';
import type { SeriesCurve as SeriesCurveData, SeriesPoint } from '../../shared/compare/types';
import { interval, signed } from '../format';
import { TickLabel } from './TickLabel';

const margin = { top: 12, right: 24, bottom: 36, left: 72 };

type Plotted = SeriesPoint & { level: number; difference: number };

const LABEL_CHARS = 28;

/** The y axis title: it must fit the plot's height, and the caption above names the metric. */
function axisTitle(metric: string): string {
  const full = `Δ ${metric} vs reference`;
  return full.length <= LABEL_CHARS ? full : 'Δ vs reference';
}

function short(text: string): string {
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
}

type Scale = ReturnType<typeof scaleLinear<number>>;

/** The levels (the reference's too, when it has one) and differences, to their axes. */
function scales(plotted: Plotted[], referenceLevel: number | null, innerW: number, innerH: number) {
  const levels = [
    ...plotted.map((p) => p.level),
    ...(referenceLevel === null ? [] : [referenceLevel]),
  ];
  const ys = plotted.flatMap((p) => [p.difference, ...(p.ci95 ?? [])]);
  const span = Math.max(...ys.map(Math.abs), 0.05) * 1.15;
  const x = scaleLinear({
    domain: [Math.min(...levels), Math.max(...levels)],
    range: [0, innerW],
    nice: true,
  });
  const y = scaleLinear({ domain: [-span, span], range: [innerH, 0], nice: true });
  return { levels, x, y };
}

/** A level's point: filled when its interval excludes 0, hollow when not, grey without one. */
function LevelPoint({ p, x, y }: { p: Plotted; x: Scale; y: Scale }) {
  const excludesZero = p.ci95 !== null && (p.ci95[0] > 0 || p.ci95[1] < 0);
  return (
    <circle
      cx={x(p.level)}
      cy={y(p.difference)}
      r={5}
      className={p.ci95 === null ? 'point no-interval' : excludesZero ? 'point' : 'point hollow'}
    >
      <title>{`${p.condition}: ${signed(p.difference)} ${interval(p.ci95)}${p.n !== null ? `, n = ${p.n}` : ''}${excludesZero ? ' — interval excludes 0' : ''}`}</title>
    </circle>
  );
}

type Reference = SeriesCurveData['reference'];

/**
 * The reference with no level of its own: the zero line, labelled as the reference. The label
 * sits at the right end on the side of the line the last level's band leaves free, and is drawn
 * over the band, so the two never hide each other.
 */
function ZeroLineLabel({
  reference,
  last,
  y,
  innerW,
}: {
  reference: Reference;
  last: Plotted;
  y: Scale;
  innerW: number;
}) {
  const [low, high] = last.ci95 ?? [last.difference, last.difference];
  const below = high >= 0 && (low >= 0 || high > -low);
  const name = reference.condition === 'reference' ? '' : ` (${short(reference.condition)})`;
  return (
    <text x={innerW} y={below ? y(0) + 13 : y(0) - 5} textAnchor="end" className="reference-label">
      {`0 = reference${name}`}
    </text>
  );
}

/** The reference at its own level: a diamond at 0. */
function ReferencePoint({
  reference,
  level,
  x,
  y,
}: {
  reference: Reference;
  level: number;
  x: Scale;
  y: Scale;
}) {
  return (
    <g className="reference-point">
      <rect
        x={x(level) - 5}
        y={y(0) - 5}
        width={10}
        height={10}
        transform={`rotate(45 ${x(level)} ${y(0)})`}
      />
      <text x={x(level) + 9} y={y(0) - 8} className="reference-label">
        reference
      </text>
      <title>{`${reference.condition}: the reference, 0 by definition`}</title>
    </g>
  );
}

/**
 * Difference from the reference against the series level, with the 95 % interval as a band.
 * Levels whose interval excludes 0 are drawn filled, the others hollow, and a level with no
 * interval at all (reported values only) small and grey: it must not read as a measured point.
 * The y axis says what it measures, and the reference sits at 0: as a point at its own level
 * when it has one, else as the labelled zero line.
 */
export function SeriesCurve({
  points,
  width,
  height = 220,
  label,
  metric,
  reference,
}: {
  points: SeriesPoint[];
  width: number;
  height?: number;
  label: string;
  metric: string;
  reference?: Reference;
}) {
  const plotted = points
    .filter((p): p is Plotted => p.level !== null && p.difference !== null)
    .sort((a, b) => a.level - b.level);
  if (plotted.length === 0) return <p className="muted">No levels with a difference to plot.</p>;
  const innerW = width - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const referenceLevel = reference?.level ?? null;
  const { levels, x, y } = scales(plotted, referenceLevel, innerW, innerH);
  return (
    <svg width={width} height={height} role="img" aria-label={label}>
      <Group left={margin.left} top={margin.top}>
        <Line from={{ x: 0, y: y(0) }} to={{ x: innerW, y: y(0) }} className="zero-line" />
        <Area
          data={plotted.filter((p) => p.ci95)}
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
        {plotted.map((p) => (
          <LevelPoint key={p.condition} p={p} x={x} y={y} />
        ))}
        {reference && referenceLevel !== null ? (
          <ReferencePoint reference={reference} level={referenceLevel} x={x} y={y} />
        ) : null}
        {reference && referenceLevel === null ? (
          <ZeroLineLabel reference={reference} last={plotted.at(-1)!} y={y} innerW={innerW} />
        ) : null}
        <text
          transform={`translate(${-margin.left + 14}, ${innerH / 2}) rotate(-90)`}
          textAnchor="middle"
          className="axis-title"
        >
          {axisTitle(metric)}
        </text>
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
