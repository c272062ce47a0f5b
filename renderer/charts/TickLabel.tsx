import type { TickRendererProps } from '@visx/axis';

/**
 * An axis tick label as one plain SVG text. visx's default label is its Text component, which
 * parses CSS calc() strings and measures words on every render: a third of the comparison
 * view's first render, for labels that are one short number.
 */
export function TickLabel({
  formattedValue,
  x,
  y,
  dx,
  dy,
  fontSize,
  fontFamily,
  fill,
  className,
  textAnchor,
}: TickRendererProps) {
  return (
    <text
      x={x}
      y={y}
      dx={dx}
      dy={dy}
      fontSize={fontSize}
      fontFamily={fontFamily}
      fill={fill}
      className={className}
      textAnchor={textAnchor}
    >
      {formattedValue}
    </text>
  );
}
