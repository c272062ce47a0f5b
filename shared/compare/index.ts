/** The public API of the comparison engine (docs/comparison.md); everything here is pure. */

export type * from './types';
export { toCompareExperiment, toCompareRun } from './types';
export {
  applyHolm,
  buildExperimentReport,
  CHECKER_VERSION,
  chooseReference,
  compareRuns,
  planPairs,
} from './report';
export type { PlannedPair } from './report';
export { canonicalJson, compareStrings, flatten, FLATTEN_MAX_DEPTH, jsonEqual } from './canonical';
export { checkStatus, evaluatedDiffers, runChecks, seedOf, summarizeChecks } from './checks';
export { classifyExample, criterionRules, passValue, summarizeCriteria } from './criteria';
export type { CriterionRule } from './criteria';
export {
  behaviorChanged,
  coverageOf,
  exampleChanges,
  indexRun,
  outputChanged,
  pairExamples,
} from './pairing';
export type { Pairing, RunIndex } from './pairing';
export {
  confoundingChecks,
  metricComparisons,
  reportedDifference,
  sharedExampleField,
  verdictFor,
} from './metrics';
export { MIN_PAIRED_N, pairedDifference, stableMean } from './paired';
export {
  BOOTSTRAP_METHOD,
  COUNT_PATH_LIMIT,
  DEFAULT_RESAMPLES,
  pairedBootstrap,
  percentile,
} from './bootstrap';
export type { BootstrapResult } from './bootstrap';
export { bootstrapSeed, Xoshiro128 } from './rng';
export { sha256Hex } from './sha256';
export { comparisonLimitations } from './limitations';
export { noiseFloor, reproductionTable, seriesCurves } from './series';
export {
  EXAMPLE_CSV_BASE_HEADER,
  exampleCsvHeader,
  exampleCsvRows,
  fitCell,
  MAX_CELL_CHARS,
  SUMMARY_CSV_HEADER,
  summaryCsvRows,
  textCell,
  valueCell,
} from './csv';
export type { CsvCell, ExampleCsvRecord } from './csv';
export { runScorecards } from './scorecards';
export { meanInterval } from './stats/mean-interval';
export { notComparableWords, verdictWords } from './verdict-words';
export { candidateLimitations, protocolSummary } from './finding';
export type { ProtocolCondition, ProtocolSummary } from './finding';
export { holmAdjust } from './stats/holm';
export { mcnemarExact } from './stats/mcnemar';
export { powerSummary, sampleSd } from './stats/power';
export { spearman } from './stats/spearman';
export type { SpearmanResult } from './stats/spearman';
export { wilcoxonSignedRank } from './stats/wilcoxon';
