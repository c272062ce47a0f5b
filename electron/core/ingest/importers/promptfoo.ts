import path from 'node:path';
import {
  emptySettings,
  namedCondition,
  namedExperiment,
  type ImportedExample,
  type ImportedRun,
  type JsonObject,
  type JsonValue,
  type MetricDefinition,
} from '../../../../shared/model';
import { sha256Text } from '../hash';
import { locationOf } from '../location';
import { ImportProblem } from '../types';
import { clip, compact, int, isRecord, jsonObject, num, str, utcIso } from './json-values';
import { describeType, seedOf } from './mechlens';

/**
 * The test suite a file ran: each test's vars and asserts, sorted, hashed. Two evals of the
 * same tests (a new provider, a new prompt, a rerun) share it and so are one experiment;
 * the evalId differs on every run and would keep them apart.
 */
function suiteKey(results: Record<string, unknown>[]): string {
  const tests = new Set<string>();
  for (const result of results) {
    const testCase = isRecord(result.testCase) ? result.testCase : {};
    const vars = testCase.vars ?? result.vars ?? null;
    tests.add(canonicalJson({ vars, assert: testCase.assert ?? null }));
  }
  return sha256Text([...tests].sort().join('\n')).slice(0, 16);
}

/**
 * promptfoo `-o output.json` exports (docs/formats-promptfoo.md). Each result's `promptIdx` indexes
 * the summary's `prompts`, and promptfoo makes one entry there per prompt × provider pair, so one
 * promptIdx is one column of promptfoo's own results table: one run here.
 */

export function isPromptfooOutput(value: unknown): boolean {
  if (!isRecord(value) || !isRecord(value.results)) return false;
  const summary = value.results;
  if ((summary.version !== 2 && summary.version !== 3) || !Array.isArray(summary.results))
    return false;
  const first: unknown = summary.results[0];
  return first === undefined || (isRecord(first) && 'promptIdx' in first);
}

/** Key order must not change an id, so keys are sorted. Depth is bounded by parseJson. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A test's description when it has one, else a hash of its variables: testIdx would change
 * whenever tests are reordered, and matching across runs is by id only.
 */
function exampleIdOf(result: Record<string, unknown>, testCase: Record<string, unknown>): string {
  const description = str(testCase.description) ?? str(result.description);
  if (description) return description;
  const vars = jsonObject(result.vars) ?? jsonObject(testCase.vars);
  if (vars && Object.keys(vars).length > 0)
    return `vars-${sha256Text(canonicalJson(vars)).slice(0, 12)}`;
  return `test-${int(result.testIdx) ?? 0}`;
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function exampleOf(result: Record<string, unknown>): ImportedExample {
  const testCase = isRecord(result.testCase) ? result.testCase : {};
  const response = isRecord(result.response) ? result.response : {};
  const prompt = result.prompt;
  const graded = isRecord(result.gradingResult) ? result.gradingResult : {};
  const named = jsonObject(result.namedScores) ?? jsonObject(graded.namedScores) ?? {};
  const pass = typeof result.success === 'boolean' ? result.success : (graded.pass ?? null);
  // failureReason 2 is a provider or runtime error; 1 is only a failed assertion.
  const errored = result.failureReason === 2;
  return {
    id: exampleIdOf(result, testCase),
    input: isRecord(prompt) ? textOf(prompt.raw) : textOf(prompt),
    output: textOf(response.output),
    fields: { ...named, pass: pass as JsonValue, score: num(result.score) ?? num(graded.score) },
    target: null,
    error: errored ? (str(result.error) ?? str(response.error) ?? 'error') : null,
  };
}

interface Column {
  promptIdx: number;
  results: Record<string, unknown>[];
}

function providerOf(result: Record<string, unknown>, prompt: Record<string, unknown>) {
  const provider = result.provider;
  const id =
    (isRecord(provider) ? str(provider.id) : str(provider)) ??
    str(prompt.provider) ??
    'unknown provider';
  const label = isRecord(provider) ? str(provider.label) : null;
  return { id, label: label || null };
}

/**
 * promptfoo's per-column totals, flattened one level ("tokenUsage/total") so that every metric
 * is a scalar.
 */
function metricsOf(prompt: Record<string, unknown>): JsonObject {
  const entries = Object.entries(jsonObject(prompt.metrics) ?? {}).flatMap(([key, value]) =>
    isRecord(value)
      ? Object.entries(value)
          .filter(([, item]) => !isRecord(item))
          .map(([inner, item]): [string, JsonValue] => [`${key}/${inner}`, item as JsonValue])
      : [[key, value] as [string, JsonValue]],
  );
  // fromEntries keeps a key named "__proto__" as data instead of changing the prototype.
  const metrics: JsonObject = Object.fromEntries(entries);
  const passed = num(metrics.testPassCount);
  const total =
    (passed ?? 0) + (num(metrics.testFailCount) ?? 0) + (num(metrics.testErrorCount) ?? 0);
  if (passed !== null && total > 0) metrics.pass_rate = passed / total;
  return metrics;
}

function definitionsFor(metrics: JsonObject): Record<string, MetricDefinition> {
  const out: Record<string, MetricDefinition> = {};
  if ('pass_rate' in metrics) {
    out.pass_rate = {
      description: 'Share of tests whose assertions all passed (testPassCount over all tests).',
      example_field: 'pass',
      direction: 'higher_is_better',
    };
  }
  if ('score' in metrics) {
    // A sum over tests, so it is not the mean of the per-example `score` field.
    out.score = {
      description: "Sum of the tests' scores, as promptfoo reports it.",
      direction: 'higher_is_better',
    };
  }
  return out;
}

/** What one export says of all its columns (runs). */
interface Export {
  file: Record<string, unknown>;
  summary: Record<string, unknown>;
  config: Record<string, unknown>;
  metadata: Record<string, unknown>;
  prompts: unknown[];
  path: string;
  /** The evalId, or the file's path when the export has none. */
  runKey: string;
  suite: string;
  distinctPrompts: number;
}

function exportOf(file: Record<string, unknown>, src: { path: string }): Export {
  const summary = file.results as Record<string, unknown>;
  const head = isRecord(summary.table) && isRecord(summary.table.head) ? summary.table.head : {};
  const prompts: unknown[] = Array.isArray(summary.prompts)
    ? summary.prompts
    : Array.isArray(head.prompts)
      ? head.prompts
      : [];
  return {
    file,
    summary,
    config: isRecord(file.config) ? file.config : {},
    metadata: isRecord(file.metadata) ? file.metadata : {},
    prompts,
    path: src.path,
    runKey: str(file.evalId) ?? sha256Text(locationOf(src.path)).slice(0, 16),
    suite: suiteKey(summary.results as Record<string, unknown>[]),
    distinctPrompts: new Set(prompts.map((p) => (isRecord(p) ? (str(p.id) ?? str(p.raw)) : null)))
      .size,
  };
}

/** The results grouped by promptIdx, in promptIdx order. */
function columnsOf(results: unknown[]): Column[] {
  const columns = new Map<number, Column>();
  results.forEach((result, index) => {
    if (!isRecord(result)) {
      throw new ImportProblem(
        `results.results[${index}] should be an object, but it is ${describeType(result)}`,
      );
    }
    const promptIdx = int(result.promptIdx) ?? 0;
    const column = columns.get(promptIdx) ?? { promptIdx, results: [] };
    column.results.push(result);
    columns.set(promptIdx, column);
  });
  return [...columns.values()].sort((a, b) => a.promptIdx - b.promptIdx);
}

/** Repeated tests (--repeat, identical vars) keep every answer under a numbered id. */
function numberedExamples(results: Record<string, unknown>[]): {
  examples: ImportedExample[];
  warnings: string[];
} {
  const seen = new Map<string, number>();
  const examples = results.map((result) => {
    const example = exampleOf(result);
    const repeat = (seen.get(example.id) ?? 0) + 1;
    seen.set(example.id, repeat);
    if (repeat > 1) example.id = `${example.id}#${repeat}`;
    return example;
  });
  const repeated = [...seen.values()].filter((n) => n > 1).length;
  const warnings =
    repeated > 0
      ? [`${repeated} test(s) appear more than once; repeats are numbered "#2", "#3", …`]
      : [];
  return { examples, warnings };
}

/**
 * The provider's label or id, with the prompt when the export ran several, unique within the
 * export (`names` holds those already given).
 */
function conditionNameOf(
  provider: { id: string; label: string | null },
  promptLabel: string | null,
  column: Column,
  distinctPrompts: number,
  names: Set<string>,
): string {
  let name = provider.label ?? provider.id;
  if (distinctPrompts > 1 && promptLabel) name = `${name} | ${clip(promptLabel, 60)}`;
  if (names.has(name)) name = `${name} #${column.promptIdx}`;
  names.add(name);
  return name;
}

function columnRun(source: Export, column: Column, names: Set<string>): ImportedRun {
  const { file, summary, config, metadata } = source;
  const promptEntry = source.prompts[column.promptIdx];
  const prompt = isRecord(promptEntry) ? promptEntry : {};
  const provider = providerOf(column.results[0]!, prompt);
  const promptLabel = str(prompt.label) ?? str(prompt.raw);
  const name = conditionNameOf(provider, promptLabel, column, source.distinctPrompts, names);
  const { examples, warnings } = numberedExamples(column.results);
  const providers = Array.isArray(config.providers) ? config.providers : [];
  const providerEntry = providers.find((p) => isRecord(p) && p.id === provider.id);
  const providerConfig = isRecord(providerEntry) ? jsonObject(providerEntry.config) : null;
  const metrics = metricsOf(prompt);
  const settings = emptySettings();
  settings.model = compact({ id: provider.id, label: provider.label });
  settings.config = providerConfig;
  settings.params = compact({ prompt: promptLabel });
  const evalId = str(file.evalId);
  return {
    runId: `promptfoo-${sha256Text(`${source.runKey}|${column.promptIdx}|${provider.id}`).slice(0, 24)}`,
    format: 'promptfoo',
    formatVersion: String(summary.version),
    project: path.basename(path.dirname(path.resolve(source.path))),
    experiment: namedExperiment(
      `promptfoo:${source.suite}`,
      str(config.description) ?? evalId ?? path.basename(source.path),
    ),
    condition: namedCondition(name),
    settings,
    codeCommit: null,
    startedAt: utcIso(summary.timestamp) ?? utcIso(metadata.evaluationCreatedAt),
    finishedAt: null,
    state: 'completed',
    seed: seedOf(null, providerConfig),
    metrics,
    metricDefinitions: definitionsFor(metrics),
    provenance: compact({
      producer: compact({ name: 'promptfoo', version: str(metadata.promptfooVersion) }),
      eval_id: evalId,
      shareable_url: str(file.shareableUrl),
      exported_at: str(metadata.exportedAt),
    }),
    warnings,
    examples,
  };
}

export function importPromptfoo(value: unknown, src: { path: string }): ImportedRun[] {
  if (!isPromptfooOutput(value)) throw new ImportProblem('not a promptfoo output file');
  const file = value as Record<string, unknown>;
  // Grouping checks that every result is an object, which the suite key relies on.
  const columns = columnsOf((file.results as Record<string, unknown>).results as unknown[]);
  const source = exportOf(file, src);
  const names = new Set<string>();
  return columns.map((column) => columnRun(source, column, names));
}
