import { pairExperimentId, type ReferenceBasis } from '../../../shared/contract';
import { shortPair } from '../../../shared/labels';
import type { Db } from '../db/open';
import { NotFoundError } from '../errors';
import { conditionsOf } from '../experiments';
import { listRuns } from '../library';
import type { CompareTask } from './compute';

export type ComparePlan = Omit<CompareTask, 'dbPath'>;

/**
 * What to compare for an experiment: each condition's representative run, the reference
 * (asked for, else the effective one, with how it was chosen), and the reference's other
 * current runs as replicates.
 */
export function planComparison(
  db: Db,
  experimentId: string,
  options: { reference?: string; resamples?: number },
): ComparePlan {
  const { conditions, reference: effective } = conditionsOf(db, experimentId);
  if (conditions.length === 0)
    throw new NotFoundError(`There is no experiment "${experimentId}" with runs.`);
  const reference = options.reference ?? effective?.name;
  if (!reference)
    throw new NotFoundError(`Experiment "${experimentId}" has no reference condition: pick one.`);
  const ref = conditions.find((c) => c.name === reference);
  if (!ref)
    throw new NotFoundError(`Experiment "${experimentId}" has no condition "${reference}".`);
  const basis: ReferenceBasis =
    options.reference !== undefined && options.reference !== effective?.name
      ? 'chosen'
      : (effective?.basis ?? 'chosen');
  return {
    experimentId,
    reference,
    referenceBasis: basis,
    resamples: options.resamples ?? 10_000,
    conditions: conditions.map((c) => {
      const run = c.runs.find((r) => r.run_id === c.representativeRunId);
      // Only a series declared by hand is passed on (the run's own is read with it), which
      // keeps the cache key of every other comparison as it was.
      const declared = run && (c.series !== run.series || c.level !== run.level);
      return {
        name: c.name,
        runId: c.representativeRunId,
        role: c.name === reference ? 'reference' : c.role === 'reference' ? 'unknown' : c.role,
        ...(declared ? { series: { name: c.series, level: c.level } } : {}),
      };
    }),
    referenceReplicates: ref.runs
      .filter((r) => r.run_id !== ref.representativeRunId && !r.superseded && !r.missing)
      .map((r) => r.run_id),
  };
}

/**
 * Any two runs, whatever their experiments: the baseline is the reference, the candidate the
 * one compared with it, each named by what tells its condition apart from the other's.
 */
export function planPair(
  db: Db,
  baselineId: string,
  candidateId: string,
  options: { resamples?: number },
): ComparePlan {
  if (baselineId === candidateId)
    throw new NotFoundError('Pick two different runs: the baseline and the candidate are one run.');
  const runs = listRuns(db);
  const find = (id: string) => {
    const run = runs.find((r) => r.run_id === id);
    if (!run) throw new NotFoundError(`There is no run "${id}".`);
    return run;
  };
  return pairPlanOf(find(baselineId), find(candidateId), options);
}

/** What a two-run plan needs of each run, wherever the runs are read from (library or export). */
export interface PairRunFacts {
  run_id: string;
  experiment_id: string;
  project: string;
  condition: string;
}

/** The plan of two runs found: the baseline is the reference, the candidate the one compared. */
export function pairPlanOf(
  baseline: PairRunFacts,
  candidate: PairRunFacts,
  options: { resamples?: number },
): ComparePlan {
  const baselineId = baseline.run_id;
  const candidateId = candidate.run_id;
  // Each side named by what tells it apart; two runs of one condition are baseline and candidate.
  const same = baseline.condition === candidate.condition;
  const short = shortPair(baseline.condition, candidate.condition);
  const names = {
    shared: same ? baseline.condition : short.shared,
    baseline: same ? 'baseline' : short.reference,
    candidate: same ? 'candidate' : short.candidate,
  };
  const sameExperiment = baseline.experiment_id === candidate.experiment_id;
  return {
    experimentId: pairExperimentId(baselineId, candidateId),
    experiment: {
      id: pairExperimentId(baselineId, candidateId),
      project: baseline.project === candidate.project ? baseline.project : 'runs',
      name: [
        sameExperiment
          ? baseline.experiment_id
          : `${baseline.experiment_id} vs ${candidate.experiment_id}`,
        names.shared,
        `${baselineId} vs ${candidateId}`,
      ]
        .filter(Boolean)
        .join(' · '),
      question: null,
      claim: null,
      deviations: [],
      reproduces: null,
    },
    reference: names.baseline,
    referenceBasis: 'chosen',
    resamples: options.resamples ?? 10_000,
    conditions: [
      { name: names.baseline, runId: baselineId, role: 'reference' },
      { name: names.candidate, runId: candidateId, role: 'intervention' },
    ],
    referenceReplicates: [],
  };
}
