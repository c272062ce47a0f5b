import type {
  Comparison,
  Coverage,
  ExampleChanges,
  MetricComparison,
  PairedDifference,
  Report,
} from './compare/types';

/**
 * The report as the UI receives it: every list of example ids is replaced by its length.
 *
 * At a million pairs those lists hold ~600k ids (~8 MB of JSON) and parsing them on the page's
 * thread blocked it for ~95 ms, while the UI only ever shows how many there are; the examples
 * themselves it pages from the core. The names stay those of the report, so each count reads
 * where its list did, and the types differ, so nothing built for the full report (findings,
 * exports, the CLI's JSON) can be handed a view by mistake.
 */
export interface ReportView extends Omit<Report, 'comparisons'> {
  comparisons: ComparisonView[];
}

export interface ComparisonView extends Omit<Comparison, 'coverage' | 'examples' | 'metrics'> {
  coverage: CoverageView;
  examples: ExampleChangesView;
  metrics: MetricComparisonView[];
}

/** `Coverage` with each id list counted (the errored pair stays absent when the report has none). */
export interface CoverageView {
  paired: number;
  only_reference: number;
  only_candidate: number;
  input_mismatch: number;
  errored_reference?: number;
  errored_candidate?: number;
}

export interface ExampleChangesView {
  behavior_changed: number;
  output_changed: number;
}

export interface MetricComparisonView extends Omit<MetricComparison, 'paired'> {
  paired: PairedDifferenceView | null;
}

export interface PairedDifferenceView extends Omit<PairedDifference, 'input_mismatch'> {
  input_mismatch: number;
}

function coverageView(coverage: Coverage): CoverageView {
  const { errored_reference, errored_candidate } = coverage;
  return {
    paired: coverage.paired,
    only_reference: coverage.only_reference.length,
    only_candidate: coverage.only_candidate.length,
    input_mismatch: coverage.input_mismatch.length,
    ...(errored_reference && errored_candidate
      ? {
          errored_reference: errored_reference.length,
          errored_candidate: errored_candidate.length,
        }
      : {}),
  };
}

function examplesView(examples: ExampleChanges): ExampleChangesView {
  return {
    behavior_changed: examples.behavior_changed.length,
    output_changed: examples.output_changed.length,
  };
}

function metricView(metric: MetricComparison): MetricComparisonView {
  const { paired, ...rest } = metric;
  return {
    ...rest,
    paired: paired && { ...paired, input_mismatch: paired.input_mismatch.length },
  };
}

export function comparisonView(comparison: Comparison): ComparisonView {
  const { coverage, examples, metrics, ...rest } = comparison;
  return {
    ...rest,
    coverage: coverageView(coverage),
    examples: examplesView(examples),
    metrics: metrics.map(metricView),
  };
}

export function reportView(report: Report): ReportView {
  const { comparisons, ...rest } = report;
  return { ...rest, comparisons: comparisons.map(comparisonView) };
}

/**
 * A cached report as compare:report answers it. The key and time come first: the renderer
 * recognises a report it holds by how the reply opens (renderer/sync.ts, reportHead).
 */
export function cachedReportView(cached: { key: string; createdAt: string; report: Report }): {
  key: string;
  createdAt: string;
  report: ReportView;
} {
  return { key: cached.key, createdAt: cached.createdAt, report: reportView(cached.report) };
}
