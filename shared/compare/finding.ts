/**
 * What the draft finding is filled in with (docs/findings.md, "The draft"): the protocol as
 * recorded by the runs, and the candidate limitations. The conclusion is always left to the
 * researcher.
 */

import type { JsonObject, JsonValue, Role } from '../model';
import { compareStrings, jsonEqual } from './canonical';
import { seedOf } from './checks';
import { deviationSentences } from './limitations';
import { indexRun } from './pairing';
import type { CompareExperiment, CompareRun, Report } from './types';

export interface ProtocolCondition {
  name: string;
  role: Role | null;
  run_id: string;
  intervention: JsonObject | null;
  /** Examples logged by the run (distinct ids). */
  n: number;
  seed: JsonValue;
}

export interface ProtocolSummary {
  question: string | null;
  claim: string | null;
  reference: string;
  /** As the reference run records them; `consistent` is false when any run records otherwise. */
  model: { id: JsonValue; revision: JsonValue; consistent: boolean };
  dataset: { id: JsonValue; revision: JsonValue; split: JsonValue; consistent: boolean };
  conditions: ProtocolCondition[];
  /** The reference run's seed. */
  seed: JsonValue;
  checker_version: string;
}

function field(object: JsonObject | null, key: string): JsonValue {
  return object?.[key] ?? null;
}

export function protocolSummary(
  experiment: CompareExperiment,
  runs: CompareRun[],
  report: Report,
): ProtocolSummary {
  const reference = runs.find((r) => r.conditionName === report.experiment.reference);
  if (!reference) throw new Error('The report’s reference run is not among the runs.');
  const ref = reference.settings;
  const same = (pick: (r: CompareRun) => JsonValue): boolean =>
    runs.every((r) => jsonEqual(pick(r), pick(reference)));
  return {
    question: experiment.question,
    claim: experiment.claim,
    reference: reference.conditionName,
    model: {
      id: field(ref.model, 'id'),
      revision: field(ref.model, 'revision'),
      consistent: same((r) => r.settings.model),
    },
    dataset: {
      id: field(ref.dataset, 'id'),
      revision: field(ref.dataset, 'revision'),
      split: field(ref.dataset, 'split'),
      consistent: same((r) => r.settings.dataset),
    },
    conditions: [...runs]
      .sort((a, b) => compareStrings(a.conditionName, b.conditionName))
      .map((r) => ({
        name: r.conditionName,
        role: r.role,
        run_id: r.runId,
        intervention: r.settings.intervention,
        n: indexRun(r).ids.length,
        seed: seedOf(r) ?? null,
      })),
    seed: seedOf(reference) ?? null,
    checker_version: report.checker_version,
  };
}

/**
 * Every limitation of the report once: the declared deviations first, then each comparison's
 * own sentences prefixed with the pair they are about.
 */
export function candidateLimitations(experiment: CompareExperiment, report: Report): string[] {
  const deviations = deviationSentences(experiment);
  const out = new Set(deviations);
  for (const c of report.comparisons) {
    const pair = `${c.candidate.condition} vs ${c.reference.condition}`;
    for (const text of c.limitations) if (!deviations.includes(text)) out.add(`${pair}: ${text}`);
  }
  return [...out];
}
