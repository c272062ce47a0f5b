/**
 * What a comparison needs of a run and an experiment, and the report it produces
 * (docs/comparison.md, "The report and the CSVs": snake_case, `null` for unknown or absent values).
 *
 * Examples come as rows (one object per example). The comparison indexes each run's rows by id
 * once (cached per examples array) and does its numeric work on Float64Arrays, so a columnar
 * input form did not pay for itself and is not offered.
 */

import type {
  Direction,
  Expectation,
  ImportedExperiment,
  ImportedRun,
  JsonObject,
  JsonValue,
  MetricDefinition,
  Reproduces,
  Role,
  RunSettings,
} from '../model';

export interface CompareExample {
  id: string;
  input: string;
  output: string;
  fields: JsonObject;
  /** A non-empty string marks the example as errored: its criteria are not comparable. */
  error: string | null;
}

export interface CompareRun {
  runId: string;
  conditionName: string;
  role: Role | null;
  series: string | null;
  level: number | null;
  expect: Record<string, Expectation>;
  compareTo: string[];
  settings: RunSettings;
  codeCommit: string | null;
  metrics: JsonObject;
  metricDefinitions: Record<string, MetricDefinition>;
  /** Ids should be unique; if one repeats, its first row is used. */
  examples: CompareExample[];
}

export interface CompareExperiment {
  id: string;
  project: string;
  name: string;
  question: string | null;
  claim: string | null;
  deviations: string[];
  reproduces: Reproduces | null;
}

export interface CompareOptions {
  /** Bootstrap resamples per interval; 10,000 by default. */
  resamples?: number;
}

export interface ReportOptions extends CompareOptions {
  /**
   * Condition name of the reference; chosen as in docs/comparison.md, "The reference", when absent.
   */
  reference?: string;
  /** Extra runs per condition name (replicates); two of the reference's give the noise floor. */
  replicates?: Record<string, CompareRun[]>;
}

export type CheckStatus = 'matches' | 'differs' | 'unknown' | 'not applicable';

export type CheckCategory =
  | 'model'
  | 'dataset'
  | 'sae'
  | 'intervention'
  | 'generation'
  | 'config'
  | 'params'
  | 'seed'
  | 'code'
  | 'metric_definitions'
  | 'examples';

export interface Check {
  path: string;
  category: CheckCategory;
  status: CheckStatus;
  /** The recorded value (for `examples.ids`: the number of examples; `examples.inputs`: null). */
  reference: JsonValue;
  candidate: JsonValue;
}

export interface CheckSummary {
  matches: number;
  differs: number;
  unknown: number;
  'not applicable': number;
}

export interface Coverage {
  paired: number;
  only_reference: string[];
  only_candidate: string[];
  input_mismatch: string[];
  /**
   * Paired ids whose example errored on that side: left out of every criterion and paired
   * statistic. Both lists are present only when one is not empty, so a report of runs without
   * errors is the same as before they existed.
   */
  errored_reference?: string[];
  errored_candidate?: string[];
}

export interface ExampleChanges {
  behavior_changed: string[];
  output_changed: string[];
}

export type CriterionClass = 'improved' | 'regressed' | 'unchanged' | 'changed' | 'not_comparable';

/**
 * `numeric`: numbers and booleans (0/1) judged by the agreed direction; `pass_fail`: exact-match
 * style outcomes (pass→fail is a regression); `categorical`: changed/unchanged only.
 */
export type CriterionKind = 'numeric' | 'pass_fail' | 'categorical';

export interface McNemar {
  improved: number;
  regressed: number;
  p_value: number;
}

export interface CriterionSummary {
  field: string;
  /** The direction used: the one both runs declare; `higher_is_better` for pass/fail fields. */
  direction: Direction | null;
  kind: CriterionKind;
  improved: number;
  regressed: number;
  unchanged: number;
  changed: number;
  not_comparable: number;
  /** Exact McNemar test on the discordant pairs, for two-valued directed criteria only. */
  mcnemar: McNemar | null;
  /** Wilcoxon signed-rank test on candidate − reference, for numeric criteria with more than two values. */
  wilcoxon: Wilcoxon | null;
}

export interface Wilcoxon {
  /** Non-zero differences (zeros are dropped, Wilcoxon's original method). */
  n: number;
  /** T = min(W+, W−); null when every difference is zero. */
  statistic: number | null;
  p_value: number | null;
  method: 'exact' | 'normal approximation';
}

export interface Power {
  /** Sample standard deviation of the paired differences (n − 1 denominator). */
  sd: number | null;
  /** Minimum detectable effect at two-sided α = 0.05 and 80 % power: (t.975 + t.8)·sd/√n, n − 1 df. */
  mde: number | null;
  /** Pairs needed to detect the observed difference; null unless the interval includes 0. */
  n_for_observed: number | null;
}

/** The power hint sits flat in `paired` (`paired.mde`, `paired.n_for_observed`). */
export interface PairedDifference extends Power {
  n: number;
  difference: number | null;
  ci95: [number, number] | null;
  resamples: number;
  seed: string;
  /** How the interval was computed (see paired.ts): Tango's score interval or the t interval. */
  method: string;
  /**
   * Two-sided p of "no difference" from the paired sign-flip permutation test (the sign test
   * when every |difference| is equal); null when the difference is not computable.
   */
  p_value: number | null;
  /** How p_value was computed: exact, or from random sign patterns past the exact paths. */
  p_method: string | null;
  /**
   * True below MIN_PAIRED_N pairs, where no interval method keeps its 95 % promise: the interval
   * is a rough guide and the verdict is `too_few_examples`.
   */
  small_n: boolean;
  /** Holm-adjusted over every paired p-value of the report (or of the one comparison). */
  p_holm: number | null;
  /** Paired ids whose inputs differ: they stay in the statistics and are listed here. */
  input_mismatch: string[];
  wilcoxon: Wilcoxon | null;
}

export interface ReportedDifference {
  reference: JsonValue;
  candidate: JsonValue;
  difference: number | null;
}

/**
 * `too_few_examples`: fewer than MIN_PAIRED_N pairs, so the interval cannot carry a verdict.
 * `inconclusive` also stands for an interval that is missing or not computable.
 * `not_comparable`: the runs differ in a way that confounds the metric (generation settings, or
 * the metric's own definition); `MetricComparison.not_comparable` lists the checks.
 */
export type Verdict =
  'consistent' | 'inconsistent' | 'inconclusive' | 'too_few_examples' | 'not_comparable';

export interface MetricComparison {
  name: string;
  /** What the metric measures, as the reference run's definition (else the candidate's) says. */
  description: string | null;
  example_field: string | null;
  direction: Direction | null;
  reported: ReportedDifference;
  paired: PairedDifference | null;
  expect: Expectation | null;
  verdict: Verdict | null;
  /**
   * Paths of the `differs` checks that confound this metric: every differing generation setting,
   * and `metric_definitions.<name>` when the two runs define the metric differently (then the
   * comparison of the metric is unavailable). Empty when nothing confounds it.
   */
  not_comparable: string[];
}

export interface RunRef {
  condition: string;
  run_id: string;
}

export interface Comparison {
  reference: RunRef;
  candidate: RunRef;
  checks: Check[];
  summary: CheckSummary;
  evaluated_differs: boolean;
  coverage: Coverage;
  examples: ExampleChanges;
  criteria: CriterionSummary[];
  metrics: MetricComparison[];
  limitations: string[];
}

export interface SeriesPoint {
  condition: string;
  level: number | null;
  metric: string;
  /** The run's own reported value of the metric. */
  value: number | null;
  /**
   * Difference from the reference: the paired difference when the metric has a shared example
   * field (null if no example pairs), else the difference of the reported values.
   */
  difference: number | null;
  ci95: [number, number] | null;
  n: number | null;
}

export interface SeriesTrend {
  spearman_rho: number | null;
  p_value: number | null;
  method: 'exact permutation' | 't approximation' | null;
}

export interface SeriesCurve {
  name: string;
  metric: string;
  /** Every difference is measured from this condition: 0 on the curve's axis. */
  reference: { condition: string; level: number | null };
  points: SeriesPoint[];
  /** Spearman's rank correlation of value with level. */
  trend: SeriesTrend;
}

export interface ReproductionRow {
  metric: string;
  condition: string;
  paper: number;
  observed: number | null;
  difference: number | null;
  /**
   * 95 % interval of the per-example mean of the metric's example field in the observed run
   * (Wilson for two-valued outcomes, Student t otherwise); null without an example field or
   * with fewer than two values.
   */
  observed_ci95: [number, number] | null;
  /** Examples behind `observed_ci95`. */
  observed_n: number | null;
}

export interface Reproduction {
  arxiv: string | null;
  version: string | null;
  where: string | null;
  rows: ReproductionRow[];
}

export interface NoiseFloorMetric {
  name: string;
  difference: number | null;
  ci95: [number, number] | null;
  n: number | null;
}

export interface NoiseFloor {
  condition: string;
  runs: [string, string];
  metrics: NoiseFloorMetric[];
}

export interface ReportExperiment {
  id: string;
  project: string;
  reference: string;
  /**
   * How the reference was chosen: by hand (or as the baseline of two chosen runs), declared
   * in the files, or guessed from a name or as the earliest run. Set by the app's comparison
   * job; the pure report builder leaves it out.
   */
  reference_basis?: 'chosen' | 'declared' | 'name' | 'earliest';
  name: string;
  question: string | null;
  claim: string | null;
}

/** One run on its own: what it reports and how many examples it logged. */
export interface RunScorecard {
  condition: string;
  run_id: string;
  role: Role | null;
  /** Distinct example ids the run logged. */
  examples: number;
  /**
   * Of those, examples whose producer recorded an error; present only when there are some, so a
   * report of runs without errors never mentions them.
   */
  errored?: number;
  /** Each metric the run logs, with its own value. */
  metrics: { name: string; value: JsonValue; description: string | null }[];
}

export interface Report {
  checker_version: '1';
  experiment: ReportExperiment;
  /** Every compared run on its own, by condition name. */
  runs: RunScorecard[];
  comparisons: Comparison[];
  series: SeriesCurve[];
  reproduction: Reproduction | null;
  noise_floor: NoiseFloor | null;
}

/** The comparison view of an imported run. */
export function toCompareRun(run: ImportedRun): CompareRun {
  return {
    runId: run.runId,
    conditionName: run.condition.name,
    role: run.condition.role,
    series: run.condition.series,
    level: run.condition.level,
    expect: run.condition.expect,
    compareTo: run.condition.compareTo,
    settings: run.settings,
    codeCommit: run.codeCommit,
    metrics: run.metrics,
    metricDefinitions: run.metricDefinitions,
    examples: run.examples.map((e) => ({
      id: e.id,
      input: e.input,
      output: e.output,
      fields: e.fields,
      error: e.error,
    })),
  };
}

/** The comparison view of an imported experiment (plain runs: build one from the project). */
export function toCompareExperiment(
  experiment: ImportedExperiment,
  project: string,
): CompareExperiment {
  return { ...experiment, project };
}
