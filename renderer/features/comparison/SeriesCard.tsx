import type { SeriesCurve as SeriesData } from '../../../shared/compare/types';
import type { ReportView } from '../../../shared/report-view';
import { SeriesCurve } from '../../charts/SeriesCurve';
import { useWidth } from '../../components/useWidth';
import { fmt } from '../../format';
import { useChartsReady } from './useChartsReady';

const SERIES_HEIGHT = 220;

function SeriesCaption({ series }: { series: SeriesData }) {
  const { trend } = series;
  return (
    <figcaption>
      <strong>{series.metric}</strong> over {series.name}
      {trend.spearman_rho !== null ? (
        <span
          className="muted"
          title={`Spearman rank correlation with level (${trend.method ?? ''}); not corrected for multiple series`}
        >
          {' '}
          · Spearman ρ = {fmt(trend.spearman_rho, 2)}, p = {fmt(trend.p_value, 3)}
        </span>
      ) : null}
    </figcaption>
  );
}

/** Each declared series: the difference from the reference over the series' levels. */
export function SeriesCard({ report }: { report: ReportView }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const ready = useChartsReady();
  if (report.series.length === 0) return null;
  return (
    <section className="card">
      <h3>Series</h3>
      <div ref={ref} className="series-grid">
        {report.series.map((s) => (
          <figure key={`${s.name}-${s.metric}`}>
            <SeriesCaption series={s} />
            {ready ? (
              <SeriesCurve
                points={s.points}
                width={Math.min(560, Math.max(320, width / 2 - 16))}
                height={SERIES_HEIGHT}
                label={`${s.metric} difference from the reference over ${s.name}`}
                metric={s.metric}
                reference={s.reference}
              />
            ) : (
              <div style={{ height: SERIES_HEIGHT }} />
            )}
          </figure>
        ))}
      </div>
      <p className="muted small">
        Filled points: the 95 % interval excludes 0; hollow: it includes 0. Band: 95 % paired
        interval. Small grey points have no interval (reported values only).
      </p>
    </section>
  );
}
