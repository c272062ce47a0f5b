import path from 'node:path';
import {
  emptySettings,
  type ImportedExample,
  type ImportedRun,
  type JsonObject,
  type MetricDefinition,
} from '../../../../shared/model';
import { sha256Text } from '../hash';
import { parseJson, readJsonLines, readTextFile } from '../read';
import { ImportProblem, type ImportContext, type SourceUnit } from '../types';
import { compact, int, isRecord, jsonObject, num, str } from './json-values';
import { describeType } from './mechlens';

/**
 * lm-evaluation-harness output (FORMATS.md §4.2): an aggregated results JSON plus, with
 * --log_samples, one samples_<task>_<date_id>.jsonl per task. One run per task. The samples
 * file has one line per (doc, filter); lines of one doc merge into one example whose fields
 * are named like the results' metric keys ("exact_match,strict-match"), so each reported
 * metric links to its per-example field.
 */

/** `datetime.now().isoformat().replace(":", "-")`: the suffix of every file lm-eval writes. */
const DATE_ID = String.raw`\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?`;
const RESULTS_NAME = new RegExp(String.raw`^(.+)_(${DATE_ID})\.json$`);
const SAMPLES_NAME = new RegExp(String.raw`^samples_(.+)_(${DATE_ID})\.jsonl$`);

/**
 * The date id of an aggregated results file: `results_<date_id>.json`, or `<stem>_<date_id>.json`
 * when --output_path named a .json file.
 */
export function resultsDateId(fileName: string): string | null {
  return RESULTS_NAME.exec(fileName)?.[2] ?? null;
}

export function samplesFileTask(fileName: string): { task: string; dateId: string } | null {
  const match = SAMPLES_NAME.exec(fileName);
  return match ? { task: match[1]!, dateId: match[2]! } : null;
}

export function isLmEvalResults(value: unknown): boolean {
  return (
    isRecord(value) &&
    isRecord(value.results) &&
    isRecord(value.versions) &&
    Object.values(value.results).every(isRecord)
  );
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Request arguments: `{gen_args_N: {arg_0, arg_1}}` in current versions, `[[arg_0, arg_1], …]`
 * in older ones.
 */
function argument(args: unknown, request: number, position: 0 | 1): string | null {
  if (isRecord(args)) {
    const entry = args[`gen_args_${request}`];
    return isRecord(entry) ? str(entry[`arg_${position}`]) : null;
  }
  const entry: unknown = Array.isArray(args) ? args[request] : undefined;
  return Array.isArray(entry) ? str(entry[position]) : null;
}

/** lm-eval stringifies most numbers it logs; anything but a number or numeric text is NaN. */
function numeric(value: unknown): number {
  return typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
}

/** Multiple choice: one [loglikelihood, is_greedy] pair per choice; returns the likeliest. */
function chosenChoice(filtered: unknown): number | null {
  if (!Array.isArray(filtered) || filtered.length < 2) return null;
  let best: number | null = null;
  let bestScore = -Infinity;
  for (const [index, pair] of filtered.entries()) {
    const score = Array.isArray(pair) && pair.length === 2 ? numeric(pair[0]) : NaN;
    if (Number.isNaN(score)) return null;
    if (score > bestScore) [best, bestScore] = [index, score];
  }
  return best;
}

const SAMPLE_KEYS = new Set([
  'doc_id',
  'doc',
  'target',
  'arguments',
  'resps',
  'filtered_resps',
  'filter',
  'metrics',
  'doc_hash',
  'prompt_hash',
  'target_hash',
]);

function metricNames(line: Record<string, unknown>): string[] {
  if (Array.isArray(line.metrics))
    return line.metrics.filter((m): m is string => typeof m === 'string');
  // Older harness versions have no `metrics` list: every other scalar key is a metric.
  return Object.keys(line).filter((key) => !SAMPLE_KEYS.has(key) && typeof line[key] !== 'object');
}

class SampleMerger {
  readonly docs = new Map<string, ImportedExample>();
  private readonly seen = new Set<string>();
  duplicates = 0;

  add(line: unknown, where: string): void {
    if (!isRecord(line))
      throw new ImportProblem(`${where}: expected a JSON object, found ${describeType(line)}`);
    const docId = line.doc_id;
    if (!Number.isSafeInteger(docId) && typeof docId !== 'string') {
      throw new ImportProblem(
        `${where}: "doc_id" should be an integer, but it is ${describeType(docId)}`,
      );
    }
    const id = String(docId);
    const filter = str(line.filter) ?? 'none';
    if (this.seen.has(`${id}\0${filter}`)) {
      this.duplicates++;
      return;
    }
    this.seen.add(`${id}\0${filter}`);
    const choice = chosenChoice(line.filtered_resps);
    let example = this.docs.get(id);
    if (!example) {
      const first: unknown = Array.isArray(line.resps) ? line.resps[0] : undefined;
      const raw: unknown = Array.isArray(first) ? first[0] : first;
      const output =
        (choice !== null ? argument(line.arguments, choice, 1) : null) ??
        (typeof raw === 'string' ? raw : textOf(line.filtered_resps));
      example = {
        id,
        input: argument(line.arguments, 0, 0) ?? str(line.prompt) ?? textOf(line.doc),
        output,
        fields: {},
        target: line.target === undefined ? null : textOf(line.target),
        error: null,
      };
      this.docs.set(id, example);
    }
    for (const metric of metricNames(line)) {
      if (metric in line)
        example.fields[`${metric},${filter}`] = line[metric] as JsonObject[string];
    }
    // Loglikelihoods shift in the last digits between runs; only extracted answers are kept.
    const answer: unknown = Array.isArray(line.filtered_resps) ? line.filtered_resps[0] : undefined;
    if (choice === null && typeof answer === 'string')
      example.fields[`response,${filter}`] = answer;
  }
}

/** lm-eval's `model_args` is "k=v,k=v" on the command line and a dict from Python callers. */
function modelArgsOf(value: unknown): JsonObject | null {
  if (isRecord(value)) return value as JsonObject;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const out: JsonObject = {};
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    if (at === -1) return { value };
    out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

function definitionsOf(
  metrics: JsonObject,
  higherIsBetter: Record<string, unknown>,
  fields: Set<string>,
): Record<string, MetricDefinition> {
  const entries = Object.keys(metrics).flatMap((key): [string, MetricDefinition][] => {
    const [metric = key, filter] = key.split(',');
    if (metric.endsWith('_stderr')) return [];
    const higher = higherIsBetter[metric];
    const definition: MetricDefinition = {
      description: filter ? `${metric} after the "${filter}" filter` : metric,
      example_field: fields.has(key) ? key : null,
      direction: higher === true ? 'higher_is_better' : higher === false ? 'lower_is_better' : null,
    };
    return [[key, definition]];
  });
  // fromEntries defines keys as own properties, so a metric named "__proto__" stays a metric.
  return Object.fromEntries(entries);
}

function isoFromSeconds(seconds: number | null): string | null {
  const time = seconds === null ? NaN : new Date(seconds * 1000).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export async function importLmEval(
  unit: SourceUnit,
  ctx: ImportContext,
  parsed?: unknown,
): Promise<ImportedRun[]> {
  const [resultsFile, ...sampleFiles] = unit.files;
  if (!resultsFile) throw new ImportProblem('no results file');
  const value = parsed ?? parseJson(await readTextFile(resultsFile, { signal: ctx.signal }));
  if (!isLmEvalResults(value)) {
    throw new ImportProblem(
      'not an lm-evaluation-harness results file (it needs "results" and "versions" objects)',
    );
  }
  const doc = value as Record<string, unknown>;
  const perTask = (key: string, task: string): unknown =>
    isRecord(doc[key]) ? doc[key][task] : undefined;
  const results = doc.results as Record<string, JsonObject>;
  const config = jsonObject(doc.config) ?? {};
  const modelArgs = modelArgsOf(config.model_args);
  const modelName =
    str(doc.model_name) ?? str(modelArgs?.pretrained) ?? str(config.model) ?? 'unknown model';
  const dateId = resultsDateId(path.basename(resultsFile));
  const folder = path.dirname(path.resolve(resultsFile));
  // <output_path>/<model_name_sanitized>/results_*.json: the output folder is the project.
  const project = path.basename(
    path.basename(folder) === doc.model_name_sanitized ? path.dirname(folder) : folder,
  );
  const started = num(doc.date);
  const duration = num(numeric(doc.total_evaluation_time_seconds));

  const samplesByTask = new Map<string, string[]>();
  const warnings: string[] = [];
  for (const file of sampleFiles) {
    const task = samplesFileTask(path.basename(file))?.task;
    if (task && task in results)
      samplesByTask.set(task, [...(samplesByTask.get(task) ?? []), file]);
    else
      warnings.push(`${path.basename(file)} names no task in this results file and was not read`);
  }

  const runs: ImportedRun[] = [];
  for (const [task, metrics] of Object.entries(results)) {
    const runWarnings = [...warnings];
    const merger = new SampleMerger();
    for (const file of samplesByTask.get(task) ?? []) {
      const label = path.basename(file);
      const read = await readJsonLines(
        file,
        (line, lineNo) => merger.add(line, `line ${lineNo.toLocaleString('en-US')}`),
        { signal: ctx.signal, onBytes: ctx.onBytes },
      ).catch((error: unknown) => {
        throw error instanceof ImportProblem
          ? new ImportProblem(`${label}: ${error.message}`)
          : error;
      });
      runWarnings.push(...read.warnings.map((w) => `${label}: ${w}`));
    }
    const examples = [...merger.docs.values()];
    const subtasks = perTask('group_subtasks', task);
    const isGroup = Array.isArray(subtasks) && subtasks.length > 0;
    if (!samplesByTask.has(task) && !isGroup) {
      runWarnings.push(
        `no samples_${task}_*.jsonl beside the results, so this run has metrics but no examples (lm_eval writes them with --log_samples)`,
      );
    }
    if (merger.duplicates > 0)
      runWarnings.push(`${merger.duplicates} repeated (doc_id, filter) lines were ignored`);
    const effective = num(jsonObject(perTask('n-samples', task))?.effective);
    if (examples.length > 0 && effective !== null && effective !== examples.length) {
      runWarnings.push(
        `the results count ${effective} samples but the samples file has ${examples.length} documents`,
      );
    }

    const { alias: _alias, ...reported } = metrics;
    const fields = new Set(examples.flatMap((example) => Object.keys(example.fields)));
    const taskConfig = jsonObject(perTask('configs', task)) ?? {};
    const settings = emptySettings();
    settings.model = compact({
      id: modelName,
      revision: str(config.model_revision) ?? str(modelArgs?.revision),
      sha: config.model_sha,
      dtype: config.model_dtype,
      type: config.model,
    });
    settings.dataset = taskConfig.dataset_path
      ? compact({
          id: taskConfig.dataset_path,
          name: taskConfig.dataset_name,
          split: taskConfig.test_split ?? taskConfig.validation_split,
          revision: jsonObject(taskConfig.dataset_kwargs)?.revision,
        })
      : null;
    const generation = {
      ...jsonObject(taskConfig.generation_kwargs),
      ...jsonObject(config.gen_kwargs),
    };
    settings.generation = Object.keys(generation).length > 0 ? generation : null;
    settings.config = compact({
      model_args: modelArgs,
      num_fewshot: perTask('n-shot', task),
      task_version: perTask('versions', task),
      output_type: taskConfig.output_type,
      batch_size: config.batch_size,
      limit: config.limit,
      fewshot_as_multiturn: doc.fewshot_as_multiturn,
      chat_template_sha: doc.chat_template_sha,
      system_instruction_sha: doc.system_instruction_sha,
      random_seed: config.random_seed,
      numpy_seed: config.numpy_seed,
      torch_seed: config.torch_seed,
      fewshot_seed: config.fewshot_seed,
    });
    const identity = `${dateId ?? started ?? resultsFile}|${modelName}|${JSON.stringify(modelArgs)}|${task}`;
    runs.push({
      runId: `lm-eval-${sha256Text(identity).slice(0, 24)}`,
      format: 'lm-eval',
      formatVersion: str(doc.lm_eval_version),
      project,
      experiment: {
        id: `lm-eval:${project}/${task}`,
        name: task,
        question: null,
        claim: null,
        deviations: [],
        reproduces: null,
      },
      condition: {
        name: modelName,
        role: null,
        series: null,
        level: null,
        expect: {},
        compareTo: [],
        identityHash: null,
      },
      settings,
      codeCommit: str(doc.git_hash),
      startedAt: isoFromSeconds(started),
      finishedAt: started !== null && duration !== null ? isoFromSeconds(started + duration) : null,
      state: 'completed',
      seed: int(config.random_seed),
      metrics: reported,
      metricDefinitions: definitionsOf(
        reported,
        jsonObject(perTask('higher_is_better', task)) ?? {},
        fields,
      ),
      provenance: compact({
        producer: compact({ name: 'lm-evaluation-harness', version: str(doc.lm_eval_version) }),
        transformers_version: doc.transformers_version,
        model_source: doc.model_source,
        task_hash: perTask('task_hashes', task),
        n_samples: perTask('n-samples', task),
        subtasks: isGroup ? subtasks : null,
      }),
      warnings: runWarnings,
      examples,
    });
  }
  return runs;
}
