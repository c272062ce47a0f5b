/**
 * The field-by-field comparability checks (docs/comparison.md, "Checks"). Order (stable): model
 * (id, revision, then other keys), dataset (id, revision, split, then others), sae,
 * intervention, generation, config, params, seed, code_commit, metric_definitions.<metric>,
 * examples.ids, examples.inputs; keys sorted within a category.
 *
 * A recorded `null` counts as not recorded (ours: a null revision says nothing about the
 * revision). `params` (REPS parameters) is checked like `config`.
 */

import type { JsonObject, JsonValue, MetricDefinition } from '../model';
import { compareStrings, flatten, jsonEqual } from './canonical';
import type { Pairing } from './pairing';
import type { Check, CheckCategory, CheckStatus, CheckSummary, CompareRun } from './types';

type SettingsSection = 'model' | 'dataset' | 'sae' | 'intervention' | 'generation' | 'config';

const ALWAYS_REPORTED: Partial<Record<SettingsSection, string[]>> = {
  model: ['id', 'revision'],
  dataset: ['id', 'revision', 'split'],
};

const SEED_KEYS = ['seed', 'random_seed'];

/** Where the seed is looked up, first hit wins (MechLens "What the checks mean"). */
const SEED_LOOKUP: ['generation' | 'config', string][] = [
  ['generation', 'seed'],
  ['generation', 'random_seed'],
  ['config', 'seed'],
  ['config', 'random_seed'],
];

type Recorded = JsonValue | undefined;

function recorded(value: JsonValue | undefined): Recorded {
  return value === null ? undefined : value;
}

export function checkStatus(a: Recorded, b: Recorded, oneSidedDiffers = false): CheckStatus {
  if (a === undefined && b === undefined) return 'unknown';
  if (a === undefined || b === undefined) return oneSidedDiffers ? 'differs' : 'unknown';
  return jsonEqual(a, b) ? 'matches' : 'differs';
}

function check(path: string, category: CheckCategory, a: Recorded, b: Recorded, oneSided = false) {
  return {
    path,
    category,
    status: checkStatus(a, b, oneSided),
    reference: a ?? null,
    candidate: b ?? null,
  } satisfies Check;
}

function sectionChecks(
  section: SettingsSection | 'params',
  reference: JsonObject | null,
  candidate: JsonObject | null,
  options: { always?: string[]; exclude?: string[]; oneSided?: boolean },
): Check[] {
  const a = flatten(reference);
  const b = flatten(candidate);
  const always = options.always ?? [];
  const excluded = new Set([...always, ...(options.exclude ?? [])]);
  const others = [...new Set([...a.keys(), ...b.keys()])]
    .filter((key) => !excluded.has(key))
    .sort(compareStrings);
  return [...always, ...others].map((key) =>
    check(
      `${section}.${key}`,
      section,
      recorded(a.get(key)),
      recorded(b.get(key)),
      options.oneSided,
    ),
  );
}

export function seedOf(run: CompareRun): Recorded {
  for (const [section, key] of SEED_LOOKUP) {
    const value = recorded(run.settings[section]?.[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A definition without its null-valued keys, so `{unit: null}` and `{}` compare equal. */
function definitionValue(definition: MetricDefinition | undefined): Recorded {
  if (!definition) return undefined;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(definition)) {
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/** Metric names logged by either run, sorted. */
export function loggedMetrics(reference: CompareRun, candidate: CompareRun): string[] {
  return [...new Set([...Object.keys(reference.metrics), ...Object.keys(candidate.metrics)])].sort(
    compareStrings,
  );
}

/** What the example checks need of a pairing: how many ids fall where. */
export interface PairingCounts {
  reference: number;
  candidate: number;
  onlyReference: number;
  onlyCandidate: number;
  matched: number;
  inputMismatch: number;
}

function exampleChecks(counts: PairingCounts): Check[] {
  const refCount = counts.reference;
  const candCount = counts.candidate;
  const ids: CheckStatus =
    refCount === 0 || candCount === 0
      ? 'unknown'
      : counts.onlyReference === 0 && counts.onlyCandidate === 0
        ? 'matches'
        : 'differs';
  const inputs: CheckStatus =
    counts.matched === 0 ? 'not applicable' : counts.inputMismatch > 0 ? 'differs' : 'matches';
  return [
    {
      path: 'examples.ids',
      category: 'examples',
      status: ids,
      reference: refCount,
      candidate: candCount,
    },
    {
      path: 'examples.inputs',
      category: 'examples',
      status: inputs,
      reference: null,
      candidate: null,
    },
  ];
}

export function runChecks(reference: CompareRun, candidate: CompareRun, pairing: Pairing): Check[] {
  return checksFromCounts(reference, candidate, {
    reference: pairing.reference.ids.length,
    candidate: pairing.candidate.ids.length,
    onlyReference: pairing.onlyReference.length,
    onlyCandidate: pairing.onlyCandidate.length,
    matched: pairing.matched.length,
    inputMismatch: pairing.inputMismatch.length,
  });
}

/** The checks from the runs' settings and how their examples paired. */
export function checksFromCounts(
  reference: CompareRun,
  candidate: CompareRun,
  counts: PairingCounts,
): Check[] {
  const a = reference.settings;
  const b = candidate.settings;
  return [
    ...sectionChecks('model', a.model, b.model, { always: ALWAYS_REPORTED.model }),
    ...sectionChecks('dataset', a.dataset, b.dataset, { always: ALWAYS_REPORTED.dataset }),
    ...sectionChecks('sae', a.sae, b.sae, { oneSided: true }),
    ...sectionChecks('intervention', a.intervention, b.intervention, { oneSided: true }),
    ...sectionChecks('generation', a.generation, b.generation, { exclude: SEED_KEYS }),
    ...sectionChecks('config', a.config, b.config, { exclude: SEED_KEYS }),
    ...sectionChecks('params', a.params, b.params, {}),
    check('seed', 'seed', seedOf(reference), seedOf(candidate)),
    check('code_commit', 'code', recorded(reference.codeCommit), recorded(candidate.codeCommit)),
    ...loggedMetrics(reference, candidate).map((name) =>
      check(
        `metric_definitions.${name}`,
        'metric_definitions',
        definitionValue(reference.metricDefinitions[name]),
        definitionValue(candidate.metricDefinitions[name]),
      ),
    ),
    ...exampleChecks(counts),
  ];
}

export function summarizeChecks(checks: Check[]): CheckSummary {
  const summary: CheckSummary = { matches: 0, differs: 0, unknown: 0, 'not applicable': 0 };
  for (const c of checks) summary[c.status]++;
  return summary;
}

const EVALUATED: ReadonlySet<CheckCategory> = new Set(['model', 'dataset', 'examples']);

/** "The runs differ in what was evaluated": a differs in model, dataset or examples. */
export function evaluatedDiffers(checks: Check[]): boolean {
  return checks.some((c) => c.status === 'differs' && EVALUATED.has(c.category));
}
