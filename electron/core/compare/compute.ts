import { buildExperimentReport } from '../../../shared/compare/report';
import { guessedReferenceLimitation } from '../../../shared/compare/limitations';
import type { ReferenceBasis } from '../../../shared/contract';
import type { CompareExperiment, Report } from '../../../shared/compare/types';
import type { Role } from '../../../shared/model';
import type { Db } from '../db/open';
import type { RunTable } from '../columns/table';
import { RunTableCache } from '../columns/table-cache';
import { buildColumnReport } from './columnar/report';
import { columnPairRows } from './columnar/rows';
import { objectPairRows } from './object-rows';
import type { PairIds } from './pair-ids';
import {
  loadExperiment,
  loadRunDetails,
  loadRunExamples,
  type LoadedRun,
  type RunDetails,
} from './load';

export interface CompareTask {
  dbPath: string;
  experimentId: string;
  /** Given for a comparison of two chosen runs, which belongs to no stored experiment. */
  experiment?: CompareExperiment;
  reference: string;
  referenceBasis: ReferenceBasis;
  resamples: number;
  /** The run that stands for each condition, with its effective role. */
  conditions: {
    name: string;
    runId: string;
    role: Role | null;
    /** A series declared by hand in place of the run's own. */
    series?: { name: string | null; level: number | null };
  }[];
  /** Extra runs of the reference condition, for the noise floor. */
  referenceReplicates: string[];
}

/**
 * A comparison for the worker to compute and save under `key` (the service's cache key). With
 * `handBack`, the worker sends the report (a SavedReport) before saving it, so a caller waiting
 * for it parses it while the save runs instead of reading it back afterwards.
 */
export type CompareJob = CompareTask & {
  key: string;
  handBack?: boolean;
  /** Keep each pairing for the next comparison of the same runs (ServiceOptions.keepPairings). */
  keepPairings?: boolean;
};

/** A compared run as the explorer's search needs it: its rowid and its examples' rowid range. */
export interface PairSide {
  runRowid: number;
  firstRowid: number | null;
  lastRowid: number | null;
}

/**
 * Columnar: a million rows are a few typed arrays, not a million objects, and are stored as
 * they are (pair-arrays.ts).
 */
export interface PairRows {
  pair: number;
  reference: PairSide;
  candidate: PairSide;
  ids: PairIds;
  /** Each side's example rowid, NO_ROWID where that side has none. */
  refRowids: Float64Array;
  candRowids: Float64Array;
  /** Per example: its side and its yes/no flags, coded as in codes.ts. */
  flags: Uint8Array;
  criteria: string[];
  /** classes[c][k]: the class code (codes.ts) of example k under criterion c. */
  classes: Uint8Array[];
  /**
   * deltas[c][k]: candidate − reference of example k under criterion c when both values are
   * numbers (pass/fail outcomes as 1/0), else NaN. The explorer sorts by it.
   */
  deltas: Float64Array[];
}

export interface CompareResult {
  report: Report;
  pairs: PairRows[];
}

/** The runs' column stores as typed arrays, or null when this version cannot read one. */
function loadTables(
  db: Db,
  runs: RunDetails[],
  cache = new RunTableCache(),
): Map<RunDetails, RunTable> | null {
  const tables = cache.tables(
    db,
    runs.map((details) => details.runRowid),
  );
  return tables && new Map(runs.map((details, index) => [details, tables[index]!]));
}

/** From the column stores: typed arrays throughout, no object per example. */
function fromColumns(
  experiment: CompareExperiment,
  task: CompareTask,
  loaded: Map<string, RunDetails>,
  replicates: RunDetails[],
  tables: Map<RunDetails, RunTable>,
  checkCancelled: () => void,
  keepPairings: boolean,
): CompareResult {
  const entry = (details: RunDetails) => ({ run: details.run, table: tables.get(details)! });
  const reference = loaded.get(task.reference);
  const { report, pairs } = buildColumnReport(experiment, [...loaded.values()].map(entry), {
    reference: task.reference,
    resamples: task.resamples,
    replicates:
      reference && replicates.length > 0 ? [reference, ...replicates].map(entry) : undefined,
    checkCancelled,
    keepPairings,
  });
  return {
    report,
    pairs: report.comparisons.map((comparison, index) =>
      columnPairRows(index, pairs[index]!, {
        reference: loaded.get(comparison.reference.condition)!.runRowid,
        candidate: loaded.get(comparison.candidate.condition)!.runRowid,
      }),
    ),
  };
}

/**
 * From one object per example (decoded from the same column stores): the columnar path's
 * oracle, which tests ask for (and the path taken, to a clear error, when a store is unreadable).
 */
function fromExamples(
  db: Db,
  experiment: CompareExperiment,
  task: CompareTask,
  details: Map<string, RunDetails>,
  replicateDetails: RunDetails[],
  checkCancelled: () => void,
): CompareResult {
  const withExamples = (d: RunDetails): LoadedRun => {
    checkCancelled();
    return { runRowid: d.runRowid, run: { ...d.run, examples: loadRunExamples(db, d.runRowid) } };
  };
  const loaded = new Map([...details].map(([name, d]) => [name, withExamples(d)]));
  const replicates = replicateDetails.map((d) => withExamples(d).run);
  const reference = loaded.get(task.reference)?.run;
  checkCancelled();
  const report = buildExperimentReport(
    experiment,
    [...loaded.values()].map((l) => l.run),
    {
      reference: task.reference,
      resamples: task.resamples,
      replicates:
        reference && replicates.length > 0
          ? { [task.reference]: [reference, ...replicates] }
          : undefined,
    },
  );
  const pairs = report.comparisons.map((comparison, index) => {
    checkCancelled();
    return objectPairRows(
      index,
      loaded.get(comparison.reference.condition)!,
      loaded.get(comparison.candidate.condition)!,
    );
  });
  return { report, pairs };
}

/** The whole comparison of an experiment, from a read-only connection; pure apart from reads. */
export function computeComparison(
  db: Db,
  task: CompareTask,
  checkCancelled: () => void,
  {
    objects = false,
    cache,
    keepPairings = true,
  }: { objects?: boolean; cache?: RunTableCache; keepPairings?: boolean } = {},
): CompareResult {
  const experiment = task.experiment ?? loadExperiment(db, task.experimentId);
  const loaded = new Map<string, RunDetails>();
  for (const condition of task.conditions) {
    const details = loadRunDetails(db, condition.runId, condition.name, condition.role);
    if (condition.series) {
      details.run.series = condition.series.name;
      details.run.level = condition.series.level;
    }
    loaded.set(condition.name, details);
  }
  const replicates = task.referenceReplicates.map((runId) =>
    loadRunDetails(db, runId, task.reference, 'reference'),
  );
  checkCancelled();
  const tables = objects ? null : loadTables(db, [...loaded.values(), ...replicates], cache);
  checkCancelled();
  const result = tables
    ? fromColumns(experiment, task, loaded, replicates, tables, checkCancelled, keepPairings)
    : fromExamples(db, experiment, task, loaded, replicates, checkCancelled);
  const { report } = result;
  report.experiment.reference_basis = task.referenceBasis;
  const guessed = guessedReferenceLimitation(task.referenceBasis, task.reference);
  for (const comparison of report.comparisons) {
    if (guessed && comparison.reference.condition === task.reference)
      comparison.limitations.push(guessed);
  }
  return result;
}
