import { DEFAULT_RESAMPLES } from '../../../../shared/compare/bootstrap';
import {
  checksFromCounts,
  evaluatedDiffers,
  summarizeChecks,
} from '../../../../shared/compare/checks';
import { comparisonLimitations } from '../../../../shared/compare/limitations';
import { metricComparisonsOf } from '../../../../shared/compare/metrics';
import {
  applyHolm,
  CHECKER_VERSION,
  reportExperiment,
  chooseReference,
  planPairs,
} from '../../../../shared/compare/report';
import { runScorecards } from '../../../../shared/compare/scorecards';
import { noiseFloor, reproductionTable, seriesCurves } from '../../../../shared/compare/series';
import type {
  CompareExperiment,
  CompareRun,
  Comparison,
  Coverage,
  Report,
} from '../../../../shared/compare/types';
import type { RunTable } from '../../columns/table';
import { FLAG, SIDE_MASK, SIDE_SHIFT, sideCode } from '../codes';
import { CellCache } from './cells';
import { columnRules, criterionColumns, type CriterionColumns } from './criteria';
import { columnObservedInterval, columnSample } from './metrics';
import { erroredIds, erroredOf, idsFlaggedEach, pairTables, type ColumnPairing } from './pairing';

/** A run as the columnar comparison takes it: its details (no examples) and its columns. */
export interface ColumnRun {
  run: CompareRun;
  table: RunTable;
}

/** One compared pair: the comparison and what the explorer's rows are built from. */
export interface ColumnPair {
  pairing: ColumnPairing;
  criteria: CriterionColumns[];
}

export interface ColumnReport {
  report: Report;
  pairs: ColumnPair[];
}

/**
 * The comparison engine over column stores: the same report as buildExperimentReport
 * (shared/compare/report.ts) over the same runs, byte for byte, with every per-example step
 * done on typed arrays. The shared code does everything that is not per example.
 */
class ColumnComparer {
  readonly cache = new CellCache();
  private readonly tables = new Map<CompareRun, RunTable>();

  constructor(
    private readonly experiment: CompareExperiment,
    private readonly resamples: number,
    private readonly keepPairings: boolean,
  ) {}

  add({ run, table }: ColumnRun): void {
    this.tables.set(run, table);
  }

  table(run: CompareRun): RunTable {
    return this.tables.get(run)!;
  }

  erroredOf(table: RunTable): Uint8Array {
    return erroredOf(table).flags;
  }

  pair(reference: CompareRun, candidate: CompareRun): ColumnPairing {
    const a = this.table(reference);
    const b = this.table(candidate);
    return pairTables(a, b, this.erroredOf(a), this.erroredOf(b), this.cache, this.keepPairings);
  }

  metrics(
    reference: CompareRun,
    candidate: CompareRun,
    p: ColumnPairing,
    checks: Comparison['checks'],
  ) {
    return metricComparisonsOf(
      this.experiment.id,
      reference,
      candidate,
      (field, sign) => columnSample(p, field, sign, this.cache),
      this.resamples,
      checks,
    );
  }

  compare(
    reference: CompareRun,
    candidate: CompareRun,
  ): { comparison: Comparison; pair: ColumnPair } {
    const p = this.pair(reference, candidate);
    const checks = checksFromCounts(reference, candidate, {
      reference: p.reference.n,
      candidate: p.candidate.n,
      onlyReference: p.onlyReference,
      onlyCandidate: p.onlyCandidate,
      matched: p.matched,
      inputMismatch: p.inputMismatch,
    });
    const rules = columnRules(
      { run: reference, table: p.reference },
      { run: candidate, table: p.candidate },
      this.cache,
    );
    const criteria = rules.map((rule) => criterionColumns(rule, p, this.cache));
    const comparison: Comparison = {
      reference: { condition: reference.conditionName, run_id: reference.runId },
      candidate: { condition: candidate.conditionName, run_id: candidate.runId },
      checks,
      summary: summarizeChecks(checks),
      evaluated_differs: evaluatedDiffers(checks),
      ...coverageAndChanges(p),
      criteria: criteria.map((c) => c.summary),
      metrics: this.metrics(reference, candidate, p, checks),
      limitations: [],
    };
    applyHolm([comparison]);
    comparison.limitations = comparisonLimitations(this.experiment, comparison);
    return { comparison, pair: { pairing: p, criteria } };
  }
}

/** The pair's coverage and changed examples: every list of ids, taken in one pass. */
function coverageAndChanges(p: ColumnPairing): Pick<Comparison, 'coverage' | 'examples'> {
  const side = (name: 'reference' | 'candidate') => sideCode(name) << SIDE_SHIFT;
  const [onlyReference, onlyCandidate, inputMismatch, behaviorChanged, outputChanged] =
    idsFlaggedEach(p, [
      [SIDE_MASK, side('reference')],
      [SIDE_MASK, side('candidate')],
      [FLAG.inputMismatch, FLAG.inputMismatch],
      [FLAG.behaviorChanged, FLAG.behaviorChanged],
      [FLAG.outputChanged, FLAG.outputChanged],
    ]) as [string[], string[], string[], string[], string[]];
  const coverage: Coverage = {
    paired: p.matched,
    only_reference: onlyReference,
    only_candidate: onlyCandidate,
    input_mismatch: inputMismatch,
  };
  const erroredReference = erroredIds(p, 'reference');
  const erroredCandidate = erroredIds(p, 'candidate');
  if (erroredReference.length > 0 || erroredCandidate.length > 0) {
    coverage.errored_reference = erroredReference;
    coverage.errored_candidate = erroredCandidate;
  }
  return {
    coverage,
    examples: { behavior_changed: behaviorChanged, output_changed: outputChanged },
  };
}

export interface ColumnReportOptions {
  reference?: string;
  resamples?: number;
  /** Extra runs of the reference condition (the reference run itself among them), for the noise floor. */
  replicates?: ColumnRun[];
  /** Called before each pair, so a long comparison can be cancelled between pairs. */
  checkCancelled?: () => void;
  /** Reuse (and keep) the pairings of these tables from earlier comparisons; on by default. */
  keepPairings?: boolean;
}

/** buildExperimentReport over column stores; also hands back each pair's per-example columns. */
export function buildColumnReport(
  experiment: CompareExperiment,
  runs: ColumnRun[],
  options: ColumnReportOptions = {},
): ColumnReport {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const comparer = new ColumnComparer(experiment, resamples, options.keepPairings ?? true);
  const names = new Set<string>();
  for (const entry of runs) {
    if (names.has(entry.run.conditionName)) {
      throw new Error(
        `Two runs of condition "${entry.run.conditionName}": pass only the current run of each.`,
      );
    }
    names.add(entry.run.conditionName);
    comparer.add(entry);
  }
  for (const entry of options.replicates ?? []) comparer.add(entry);
  const details = runs.map((r) => r.run);
  const reference = chooseReference(details, options.reference);
  const compared = planPairs(details, reference).map((p) => {
    options.checkCancelled?.();
    return comparer.compare(p.reference, p.candidate);
  });
  const comparisons = compared.map((c) => c.comparison);
  applyHolm(comparisons);
  const replicates = options.replicates?.length
    ? { [reference.conditionName]: options.replicates.map((r) => r.run) }
    : undefined;
  const report: Report = {
    checker_version: CHECKER_VERSION,
    experiment: reportExperiment(experiment, reference),
    runs: runScorecards(details, (run) => {
      const table = comparer.table(run);
      return { examples: table.n, errored: erroredOf(table).count };
    }),
    comparisons,
    series: seriesCurves(details, reference, comparisons),
    reproduction: reproductionTable(experiment, details, (run, metric) => {
      const table = comparer.table(run);
      return columnObservedInterval(run, table, comparer.erroredOf(table), metric, comparer.cache);
    }),
    noise_floor: noiseFloor(
      experiment,
      reference.conditionName,
      replicates,
      { resamples },
      (a, b) => comparer.metrics(a, b, comparer.pair(a, b), []),
    ),
  };
  return { report, pairs: compared.map((c) => c.pair) };
}
