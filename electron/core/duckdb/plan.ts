import type { ReferenceBasis } from '../../../shared/contract';
import type { CompareExperiment } from '../../../shared/compare/types';
import type { Reproduces, Role } from '../../../shared/model';
import { pairPlanOf, type ComparePlan, type PairRunFacts } from '../compare/plan';
import type { ParquetSource } from './source';

interface ExperimentRecord {
  experiment_id: string;
  project: string;
  name: string;
  question: string | null;
  claim: string | null;
  deviations: string[];
  reproduces: string | null;
  reference: string | null;
  reference_basis: ReferenceBasis | null;
}

interface ConditionRecord {
  condition: string;
  role: Role;
  representative_run_id: string;
  series: string | null;
  level: number | null;
  series_declared: boolean;
}

async function rows<T>(source: ParquetSource, sql: string, values: string[]): Promise<T[]> {
  const reader = await source.connection.runAndReadAll(sql, values);
  return reader.getRowObjectsJS() as T[];
}

export async function exportedExperimentIds(source: ParquetSource): Promise<string[]> {
  const list = await rows<{ experiment_id: string }>(
    source,
    `SELECT experiment_id FROM experiments ORDER BY project, name`,
    [],
  );
  return list.map((r) => r.experiment_id);
}

export async function readExperiment(
  source: ParquetSource,
  experimentId: string,
): Promise<{ experiment: CompareExperiment; record: ExperimentRecord }> {
  const [record] = await rows<ExperimentRecord>(
    source,
    `SELECT * FROM experiments WHERE experiment_id = $1`,
    [experimentId],
  );
  if (!record) throw new Error(`The export holds no experiment "${experimentId}".`);
  return {
    record,
    experiment: {
      id: record.experiment_id,
      project: record.project,
      name: record.name,
      question: record.question,
      claim: record.claim,
      deviations: record.deviations,
      reproduces: record.reproduces ? (JSON.parse(record.reproduces) as Reproduces) : null,
    },
  };
}

/**
 * The plan the built-in engine makes for an experiment (compare/plan.ts), from the exported
 * conditions: each condition's representative run with its role (the reference's, else its
 * own, a former reference becoming `unknown`), the series set by hand, and the reference's
 * other current runs as replicates, in the library's run order.
 */
export async function planFromExport(
  source: ParquetSource,
  record: ExperimentRecord,
  options: { reference?: string; resamples?: number },
): Promise<ComparePlan> {
  const experimentId = record.experiment_id;
  const conditions = await rows<ConditionRecord>(
    source,
    `SELECT condition, role, representative_run_id, series, level, series_declared
     FROM conditions WHERE experiment_id = $1 ORDER BY position`,
    [experimentId],
  );
  if (conditions.length === 0)
    throw new Error(`There is no experiment "${experimentId}" with runs.`);
  const reference = options.reference ?? record.reference;
  if (!reference)
    throw new Error(`Experiment "${experimentId}" has no reference condition: pick one.`);
  const ref = conditions.find((c) => c.condition === reference);
  if (!ref) throw new Error(`Experiment "${experimentId}" has no condition "${reference}".`);
  const basis: ReferenceBasis =
    options.reference !== undefined && options.reference !== record.reference
      ? 'chosen'
      : (record.reference_basis ?? 'chosen');
  const replicates = await rows<{ run_id: string }>(
    source,
    `SELECT run_id FROM runs
     WHERE experiment_id = $1 AND condition = $2 AND run_id <> $3 AND NOT superseded AND NOT missing
     ORDER BY position`,
    [experimentId, reference, ref.representative_run_id],
  );
  return {
    experimentId,
    reference,
    referenceBasis: basis,
    resamples: options.resamples ?? 10_000,
    conditions: conditions.map((c) => ({
      name: c.condition,
      runId: c.representative_run_id,
      role: c.condition === reference ? 'reference' : c.role === 'reference' ? 'unknown' : c.role,
      ...(c.series_declared ? { series: { name: c.series, level: c.level } } : {}),
    })),
    referenceReplicates: replicates.map((r) => r.run_id),
  };
}

/**
 * The built-in engine's plan for two chosen runs (compare/plan.ts): the baseline is the
 * reference, each side named by what tells its condition apart from the other's.
 */
export async function planPairFromExport(
  source: ParquetSource,
  baselineId: string,
  candidateId: string,
  options: { resamples?: number },
): Promise<ComparePlan> {
  if (baselineId === candidateId)
    throw new Error('Pick two different runs: the baseline and the candidate are one run.');
  const found = await rows<PairRunFacts>(
    source,
    `SELECT run_id, experiment_id, project, condition FROM runs WHERE run_id IN ($1, $2)`,
    [baselineId, candidateId],
  );
  const find = (id: string) => {
    const run = found.find((r) => r.run_id === id);
    if (!run) throw new Error(`There is no run "${id}".`);
    return run;
  };
  return pairPlanOf(find(baselineId), find(candidateId), options);
}
