import type { Db } from '../db/open';
import { NotFoundError } from '../errors';
import { listConditions } from '../experiments';
import type { CompareTask } from './compute';

/**
 * What to compare for an experiment: each condition's representative run, the reference
 * (asked for, else the effective one), and the reference's other current runs as replicates.
 */
export function planComparison(
  db: Db,
  experimentId: string,
  options: { reference?: string; resamples?: number },
): Omit<CompareTask, 'dbPath'> {
  const conditions = listConditions(db, experimentId);
  if (conditions.length === 0)
    throw new NotFoundError(`There is no experiment "${experimentId}" with runs.`);
  const reference = options.reference ?? conditions.find((c) => c.role === 'reference')?.name;
  if (!reference)
    throw new NotFoundError(`Experiment "${experimentId}" has no reference condition: pick one.`);
  const ref = conditions.find((c) => c.name === reference);
  if (!ref)
    throw new NotFoundError(`Experiment "${experimentId}" has no condition "${reference}".`);
  return {
    experimentId,
    reference,
    resamples: options.resamples ?? 10_000,
    conditions: conditions.map((c) => ({
      name: c.name,
      runId: c.representativeRunId,
      role: c.name === reference ? 'reference' : c.role === 'reference' ? 'unknown' : c.role,
    })),
    referenceReplicates: ref.runs
      .filter((r) => r.run_id !== ref.representativeRunId && !r.superseded && !r.missing)
      .map((r) => r.run_id),
  };
}
