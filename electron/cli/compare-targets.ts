import path from 'node:path';
import type { RequestInput, RequestOutput } from '../../shared/contract';
import { listExperiments } from '../core/experiments';
import { listRuns } from '../core/library';
import type { PairwiseService } from '../core/service';
import { isS3Url } from '../core/sources/s3-location';
import { resolveRoot, rootOf } from '../core/sources/scan-sources';

type RunRow = RequestOutput<'runs:list'>[number];
export type CompareTarget = RequestInput<'compare:start'>;

/** What one `compare` call will compare, and what the user should know about the choice. */
export interface TargetPlan {
  targets: CompareTarget[];
  notes: string[];
}

/** Every experiment in the database, or the one asked for. */
export function experimentTargets(
  service: PairwiseService,
  flags: { experiment?: string; reference?: string; resamples?: number },
): TargetPlan {
  const ids = flags.experiment
    ? [flags.experiment]
    : listExperiments(service.db).map((experiment) => experiment.id);
  return {
    targets: ids.map((experimentId) => ({
      experimentId,
      reference: flags.reference,
      resamples: flags.resamples,
    })),
    notes: [],
  };
}

function within(file: string | null, root: string): boolean {
  if (!file) return false;
  if (isS3Url(root)) return rootOf(file, [resolveRoot(root)]) !== null;
  const relative = path.relative(root, path.resolve(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The run that stands for a side within one experiment: the latest current one. */
function latest(runs: RunRow[]): RunRow {
  const current = runs.filter((r) => !r.superseded && !r.missing);
  return [...(current.length ? current : runs)].sort((a, b) =>
    (b.finished_at ?? '').localeCompare(a.finished_at ?? ''),
  )[0]!;
}

function byExperiment(runs: RunRow[]): Map<string, RunRow[]> {
  const groups = new Map<string, RunRow[]>();
  for (const run of runs)
    groups.set(run.experiment_id, [...(groups.get(run.experiment_id) ?? []), run]);
  return groups;
}

/**
 * `compare A B` with two paths: the runs read from A are the baseline, those from B the
 * candidate, matched experiment by experiment (a file with several tasks gives one pair per
 * task both sides hold). Two sides of one run each are compared whatever their experiments.
 */
export function pathPairTargets(
  service: PairwiseService,
  baselinePath: string,
  candidatePath: string,
  resamples: number | undefined,
): TargetPlan {
  const runs = listRuns(service.db);
  const a = runs.filter((r) => within(r.path, baselinePath));
  const b = runs.filter((r) => within(r.path, candidatePath) && !a.includes(r));
  if (a.length === 0) throw new Error(`No run was read from ${baselinePath}.`);
  if (b.length === 0) throw new Error(`No run was read from ${candidatePath}.`);
  const notes: string[] = [];
  if (a.length === 1 && b.length === 1) {
    return { targets: [{ baseline: a[0]!.run_id, candidate: b[0]!.run_id, resamples }], notes };
  }
  const sideA = byExperiment(a);
  const sideB = byExperiment(b);
  const targets: CompareTarget[] = [];
  for (const [experiment, baselineRuns] of [...sideA.entries()].sort(([x], [y]) =>
    x.localeCompare(y),
  )) {
    const candidateRuns = sideB.get(experiment);
    if (!candidateRuns) {
      notes.push(`${experiment}: only in ${baselinePath}, not compared.`);
      continue;
    }
    const baseline = latest(baselineRuns);
    const candidate = latest(candidateRuns);
    for (const [side, list, chosen] of [
      [baselinePath, baselineRuns, baseline],
      [candidatePath, candidateRuns, candidate],
    ] as const) {
      if (list.length > 1)
        notes.push(
          `${experiment}: ${side} holds ${list.length} runs; the latest (${chosen.run_id}) is compared.`,
        );
    }
    targets.push({ baseline: baseline.run_id, candidate: candidate.run_id, resamples });
  }
  for (const experiment of sideB.keys()) {
    if (!sideA.has(experiment))
      notes.push(`${experiment}: only in ${candidatePath}, not compared.`);
  }
  if (targets.length === 0) {
    throw new Error(
      `${baselinePath} and ${candidatePath} share no experiment (task): nothing to pair. ` +
        'Give one run on each side, or pick two runs with --baseline and --candidate.',
    );
  }
  return { targets, notes };
}
