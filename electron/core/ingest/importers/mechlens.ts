import path from 'node:path';
import { z } from 'zod';
import {
  emptySettings,
  type Expectation,
  type ImportedExample,
  type ImportedExperiment,
  type ImportedRun,
  type JsonObject,
  type MetricDefinition,
  type Reproduces,
  type Role,
} from '../../../../shared/model';
import { sha256Text } from '../hash';
import { MAX_EXAMPLES_PER_RUN, tooManyExamples } from '../limits';
import { SeenIds } from '../seen-ids';
import { ImportProblem } from '../types';
import { compact, int, isRecord, jsonObject, str, utcIso } from './json-values';

/**
 * MechLens local run records (`.mechlens/runs/<run-id>.json`). The key layout is inferred
 * (docs/formats-mechlens.md), so everything beyond the example list is read tolerantly: a value of
 * the wrong shape becomes a warning, never a failed import. The examples are what comparisons match
 * on, so a malformed example list rejects the run with a message naming the example.
 */

export const expectationSchema = z.enum(['increase', 'decrease', 'no_effect']);
export const roleSchema = z.enum(['reference', 'intervention', 'control', 'unknown']);
export const directionSchema = z.enum(['higher_is_better', 'lower_is_better']);
export const expectSchema = z.record(z.string(), expectationSchema);
export const reproducesSchema = z.object({
  arxiv: z.string().nullish(),
  version: z.string().nullish(),
  where: z.string().nullish(),
  reported: z.record(z.string(), z.record(z.string(), z.number())).nullish(),
});
export const metricDefinitionSchema = z.looseObject({
  description: z.string().nullish(),
  example_field: z.string().nullish(),
  direction: directionSchema.nullish(),
  label: z.string().nullish(),
  details: z.string().nullish(),
  unit: z.string().nullish(),
});

/** Where the SDK writes run records (the default MECHLENS_DIR). */
export const MECHLENS_RUNS_DIR = /(^|[\\/])\.mechlens[\\/]runs[\\/]/;

export function isMechlensRecord(value: unknown, filePath: string): boolean {
  if (MECHLENS_RUNS_DIR.test(filePath)) return true;
  return (
    isRecord(value) &&
    typeof value.project === 'string' &&
    typeof value.name === 'string' &&
    isRecord(value.model) &&
    typeof value.model.id === 'string' &&
    Array.isArray(value.examples)
  );
}

/** "a number (12)", "a list", …: for messages about a value of the wrong type. */
export function describeType(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `${typeof value === 'number' ? 'a number' : 'a boolean'} (${String(value)})`;
}

/**
 * The SDK documents the derivation only as "from the project, question and claim"; this one
 * is ours and matches the shared samples.
 */
export function deriveExperimentId(project: string, question: string, claim: string): string {
  return `exp-${sha256Text(`${project}\n${question}\n${claim}`).slice(0, 12)}`;
}

function tolerant<T>(
  schema: z.ZodType<T>,
  value: unknown,
  label: string,
  warnings: string[],
): T | null {
  if (value === undefined || value === null) return null;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${label}.${issue.path.join('.')}` : label;
  warnings.push(`ignored "${where}": ${issue?.message ?? 'unexpected value'}`);
  return null;
}

function roleOf(value: unknown, warnings: string[]): Role | null {
  if (value === undefined || value === null) return null;
  // baseline() is the SDK 0.2 name of reference(), still accepted by the SDK.
  if (value === 'baseline') return 'reference';
  const parsed = roleSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  warnings.push(`unknown role ${JSON.stringify(value)}; recorded as "unknown"`);
  return 'unknown';
}

function stringList(value: unknown, label: string, warnings: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  warnings.push(`ignored "${label}": expected a list of strings`);
  return [];
}

function expectOf(value: unknown, warnings: string[]): Record<string, Expectation> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    warnings.push('ignored "expect": expected an object of metric → increase/decrease/no_effect');
    return {};
  }
  const entries = Object.entries(value).flatMap(([metric, raw]): [string, Expectation][] => {
    const parsed = expectationSchema.safeParse(raw);
    if (parsed.success) return [[metric, parsed.data]];
    warnings.push(
      `ignored "expect.${metric}": ${JSON.stringify(raw)} is not increase, decrease or no_effect`,
    );
    return [];
  });
  // fromEntries keeps a key named "__proto__" as data instead of changing the prototype.
  return Object.fromEntries(entries);
}

export function metricDefinitionsOf(
  value: unknown,
  warnings: string[],
): Record<string, MetricDefinition> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    warnings.push('ignored "metric_definitions": expected an object keyed by metric name');
    return {};
  }
  const entries = Object.entries(value).flatMap(([name, raw]): [string, MetricDefinition][] => {
    const definition = isRecord(raw) ? { ...raw } : null;
    if (!definition) {
      warnings.push(`ignored "metric_definitions.${name}": expected an object`);
      return [];
    }
    if (definition.direction != null && !directionSchema.safeParse(definition.direction).success) {
      warnings.push(
        `metric_definitions.${name}.direction ${JSON.stringify(definition.direction)} is not higher_is_better or lower_is_better; left unset`,
      );
      definition.direction = null;
    }
    const parsed = tolerant(
      metricDefinitionSchema,
      definition,
      `metric_definitions.${name}`,
      warnings,
    );
    return parsed ? [[name, parsed as MetricDefinition]] : [];
  });
  return Object.fromEntries(entries);
}

function readExamples(raw: unknown): ImportedExample[] {
  // A record without examples is still a run: its metrics can be compared.
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    throw new ImportProblem(
      `"examples" should be a list of examples, but it is ${describeType(raw)}`,
    );
  }
  // Refused before anything is built from them: the parsed list is all the memory spent so far.
  if (raw.length > MAX_EXAMPLES_PER_RUN) throw tooManyExamples(raw.length);
  return readExampleBatch(raw, 0, new SeenIds());
}

/** An example's keys other than its id and texts (and `fields`, unless kept), in file order. */
function otherKeys(item: Record<string, unknown>, dropFields: boolean): Record<string, unknown> {
  const { id: _id, input: _input, output: _output, fields, ...rest } = item;
  return dropFields ? rest : { ...rest, fields };
}

function notAString(n: number, id: string, key: string, text: unknown): ImportProblem {
  return new ImportProblem(
    `example ${n} ("${id}"): "${key}" should be a string, but it is ${describeType(text)}`,
  );
}

/**
 * Examples `first + 1` on of a run, checked as they are mapped. `seen` carries across the
 * batches of one run, so a duplicate id is found wherever it falls.
 */
export function readExampleBatch(raw: unknown[], first: number, seen: SeenIds): ImportedExample[] {
  // Example numbers in messages count from 1, as a person reading the file would.
  return raw.map((item: unknown, index): ImportedExample => {
    const n = first + index + 1;
    if (!isRecord(item)) {
      throw new ImportProblem(`example ${n} should be an object, but it is ${describeType(item)}`);
    }
    const { id, input, output, fields } = item;
    if (typeof id !== 'string' || id === '') {
      const what = id === '' ? 'an empty string' : describeType(id);
      throw new ImportProblem(`example ${n}: "id" should be a non-empty string, but it is ${what}`);
    }
    const earlier = seen.add(id, n);
    if (earlier !== undefined)
      throw new ImportProblem(`duplicate example id "${id}" (examples ${earlier} and ${n})`);
    // Checked one by one, not in a loop over [key, text] pairs: three arrays per example.
    if (typeof input !== 'string') throw notAString(n, id, 'input', input);
    if (typeof output !== 'string') throw notAString(n, id, 'output', output);
    // A `fields` object when present, else every other key is a field (docs/formats-mechlens.md,
    // "Examples"). The others are copied only then: a copy per example is garbage to collect.
    const fieldValues = isRecord(fields) ? fields : otherKeys(item, fields === undefined);
    return {
      id,
      input,
      output,
      fields: fieldValues as JsonObject,
      target: null,
      error: null,
    };
  });
}

function experimentOf(
  record: Record<string, unknown>,
  project: string,
  warnings: string[],
): { experiment: ImportedExperiment | null; role: Role | null } {
  const block = isRecord(record.experiment) ? record.experiment : {};
  const declaration = isRecord(block.declaration)
    ? block.declaration
    : isRecord(record.declaration)
      ? record.declaration
      : {};
  const pick = (key: string): unknown => declaration[key] ?? block[key] ?? record[key];
  const explicitId =
    str(block.id) ?? str(record.experiment_id) ?? str(record.experiment) ?? str(declaration.id);
  const rawRole = block.role ?? record.role ?? declaration.role;
  const claim = str(pick('claim'));
  const reproducesRaw = pick('reproduces');
  const deviationsRaw = pick('deviations');
  const linked =
    explicitId !== null ||
    rawRole != null ||
    isRecord(record.experiment) ||
    isRecord(record.declaration) ||
    claim !== null ||
    reproducesRaw != null ||
    deviationsRaw != null;
  const role = roleOf(rawRole, warnings);
  // A plain start_run record: the indexer groups it by project and picks a baseline by name.
  if (!linked) return { experiment: null, role };
  const question = str(pick('question'));
  const id = explicitId ?? deriveExperimentId(project, question ?? '', claim ?? '');
  return {
    role,
    experiment: {
      id,
      name: str(block.name) ?? question ?? id,
      question,
      claim,
      deviations: stringList(deviationsRaw, 'deviations', warnings),
      reproduces: tolerant(
        reproducesSchema,
        reproducesRaw,
        'reproduces',
        warnings,
      ) as Reproduces | null,
    },
  };
}

function settingsObject(
  record: Record<string, unknown>,
  key: string,
  warnings: string[],
): JsonObject | null {
  const value = record[key];
  if (value === undefined || value === null) return null;
  const object = jsonObject(value);
  if (!object) warnings.push(`ignored "${key}": expected an object, found ${describeType(value)}`);
  return object;
}

export function seedOf(generation: JsonObject | null, config: JsonObject | null): number | null {
  for (const value of [
    generation?.seed,
    generation?.random_seed,
    config?.seed,
    config?.random_seed,
  ]) {
    const seed = int(value);
    if (seed !== null) return seed;
  }
  return null;
}

export function importMechlens(
  value: unknown,
  src: { path: string; mtimeMs: number },
): ImportedRun {
  if (!isRecord(value)) {
    throw new ImportProblem(
      `a MechLens run record should be a JSON object, but this file holds ${describeType(value)}`,
    );
  }
  const warnings: string[] = [];
  const project = str(value.project);
  if (!project)
    throw new ImportProblem('the run record has no "project" (a string naming the project)');
  const name = str(value.name);
  if (!name) throw new ImportProblem('the run record has no "name" (the condition name, a string)');
  const examples = readExamples(value.examples);
  const runId = str(value.id) || path.basename(src.path).replace(/\.json$/i, '');
  if (value.id !== undefined && runId !== value.id) {
    warnings.push(`"id" is ${describeType(value.id)}, not a run id; the file name is used instead`);
  }
  const { experiment, role } = experimentOf(value, project, warnings);

  const condition = isRecord(value.condition) ? value.condition : {};
  const option = (key: string): unknown =>
    condition[key] !== undefined ? condition[key] : value[key];
  const series = option('series');
  const level = option('level');
  if (series != null && typeof series !== 'string')
    warnings.push('ignored "series": expected a string');
  if (level != null && typeof level !== 'number')
    warnings.push('ignored "level": expected a number');

  const settings = emptySettings();
  for (const key of ['model', 'dataset', 'sae', 'intervention', 'generation', 'config'] as const) {
    settings[key] = settingsObject(value, key, warnings);
  }
  const metrics = jsonObject(value.metrics);
  if (value.metrics != null && !metrics) warnings.push('ignored "metrics": expected an object');
  const sdk = jsonObject(value.sdk);

  return {
    runId,
    format: 'mechlens',
    formatVersion: str(sdk?.version) ?? str(value.schema_version),
    project,
    experiment,
    condition: {
      name,
      role,
      series: typeof series === 'string' ? series : null,
      level: typeof level === 'number' ? level : null,
      expect: expectOf(option('expect'), warnings),
      compareTo: stringList(option('compare_to'), 'compare_to', warnings),
      identityHash: null,
    },
    settings,
    codeCommit: str(value.code_commit),
    startedAt: utcIso(value.started_at),
    finishedAt: utcIso(value.finished_at),
    // finish() writes the record once the run is over, so a record on disk is a finished run.
    state: 'completed',
    seed: seedOf(settings.generation, settings.config),
    metrics: metrics ?? {},
    metricDefinitions: metricDefinitionsOf(value.metric_definitions, warnings),
    provenance: compact({ producer: sdk, code_commit: str(value.code_commit) }),
    warnings,
    examples,
  };
}
