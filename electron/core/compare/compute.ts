import {
  behaviorChanged,
  buildExperimentReport,
  classifyExample,
  criterionRules,
  outputChanged,
  pairExamples,
} from '../../../shared/compare';
import { guessedReferenceLimitation } from '../../../shared/compare/limitations';
import type { ReferenceBasis } from '../../../shared/contract';
import type { CompareExperiment, Report } from '../../../shared/compare/types';
import type { Role } from '../../../shared/model';
import type { Db } from '../db/open';
import { classCode, FLAG, NO_ROWID, SIDE_SHIFT, sideCode } from './codes';
import { exampleDelta } from './delta';
import { loadExperiment, loadRun, type LoadedExample, type LoadedRun } from './load';

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

/** A comparison for the worker to compute and save under `key` (the service's cache key). */
export type CompareJob = CompareTask & { key: string };

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
  exampleIds: string[];
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

function pairSide(loaded: LoadedRun): PairSide {
  let first: number | null = null;
  let last: number | null = null;
  for (const { rowid } of loaded.run.examples) {
    if (first === null || rowid < first) first = rowid;
    if (last === null || rowid > last) last = rowid;
  }
  return { runRowid: loaded.runRowid, firstRowid: first, lastRowid: last };
}

function pairRows(pair: number, reference: LoadedRun, candidate: LoadedRun): PairRows {
  const pairing = pairExamples(reference.run, candidate.run);
  const rules = criterionRules(reference.run, candidate.run);
  const n = pairing.all.length;
  const rows: PairRows = {
    pair,
    reference: pairSide(reference),
    candidate: pairSide(candidate),
    exampleIds: pairing.all,
    refRowids: new Float64Array(n),
    candRowids: new Float64Array(n),
    flags: new Uint8Array(n),
    criteria: rules.map((r) => r.field),
    classes: rules.map(() => new Uint8Array(n)),
    deltas: rules.map(() => new Float64Array(n)),
  };
  for (let k = 0; k < n; k++) {
    const a = pairing.allReference[k];
    const b = pairing.allCandidate[k];
    // Pairing hands back the loaded examples themselves, which carry their rowid.
    rows.refRowids[k] = a ? (a as LoadedExample).rowid : NO_ROWID;
    rows.candRowids[k] = b ? (b as LoadedExample).rowid : NO_ROWID;
    let flags = sideCode(a && b ? 'both' : a ? 'reference' : 'candidate') << SIDE_SHIFT;
    if (a && b) {
      if (a.input !== b.input) flags |= FLAG.inputMismatch;
      if (outputChanged(a, b)) flags |= FLAG.outputChanged;
      if (behaviorChanged(a, b)) flags |= FLAG.behaviorChanged;
    }
    rows.flags[k] = flags;
    rules.forEach((rule, c) => {
      rows.classes[c]![k] = classCode(classifyExample(rule, a, b));
      rows.deltas[c]![k] = exampleDelta(rule, a, b);
    });
  }
  return rows;
}

/** The whole comparison of an experiment, from a read-only connection; pure apart from reads. */
export function computeComparison(
  db: Db,
  task: CompareTask,
  checkCancelled: () => void,
): CompareResult {
  const experiment = task.experiment ?? loadExperiment(db, task.experimentId);
  const loaded = new Map<string, LoadedRun>();
  for (const condition of task.conditions) {
    checkCancelled();
    const run = loadRun(db, condition.runId, condition.name, condition.role);
    if (condition.series) {
      run.run.series = condition.series.name;
      run.run.level = condition.series.level;
    }
    loaded.set(condition.name, run);
  }
  const replicates = task.referenceReplicates.map(
    (runId) => loadRun(db, runId, task.reference, 'reference').run,
  );
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
  report.experiment.reference_basis = task.referenceBasis;
  const guessed = guessedReferenceLimitation(task.referenceBasis, task.reference);
  for (const comparison of report.comparisons) {
    if (guessed && comparison.reference.condition === task.reference)
      comparison.limitations.push(guessed);
  }
  const pairs = report.comparisons.map((comparison, index) => {
    checkCancelled();
    return pairRows(
      index,
      loaded.get(comparison.reference.condition)!,
      loaded.get(comparison.candidate.condition)!,
    );
  });
  return { report, pairs };
}
