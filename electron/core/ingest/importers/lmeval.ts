import path from 'node:path';
import {
  emptySettings,
  namedCondition,
  namedExperiment,
  type ImportedRun,
  type JsonObject,
  type MetricDefinition,
  type RunSettings,
} from '../../../../shared/model';
import { sha256Text } from '../hash';
import { locationOf } from '../location';
import { parsePythonJson, readTextFile } from '../read';
import { ImportProblem, type ImportContext, type SourceUnit } from '../types';
import { compact, int, isRecord, jsonObject, num, str } from './json-values';
import { readSamplesFile, resultsDateId, samplesFileTask, taskOfSamplesFile } from './lmeval-files';
import { numeric, SampleMerger, type OutputType, type TaskHints } from './lmeval-samples';

/**
 * lm-evaluation-harness output (docs/formats-lmeval.md): an aggregated results JSON plus, with
 * --log_samples, one samples file per task. One run per task. A samples file whose results
 * file is missing is still a run, with its examples only.
 */

export function isLmEvalResults(value: unknown): boolean {
  return (
    isRecord(value) &&
    isRecord(value.results) &&
    isRecord(value.versions) &&
    Object.values(value.results).every(isRecord)
  );
}

/** lm-eval's `model_args` (and `gen_kwargs`) is "k=v,k=v" on the command line, a dict from Python. */
function keyValuesOf(value: unknown): JsonObject | null {
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

const OUTPUT_TYPES = new Set<string>([
  'generate_until',
  'multiple_choice',
  'loglikelihood',
  'loglikelihood_rolling',
]);

function hintsOf(taskConfig: JsonObject): TaskHints {
  const type = str(taskConfig.output_type);
  return {
    outputType: type !== null && OUTPUT_TYPES.has(type) ? (type as OutputType) : null,
    targetDelimiter: str(taskConfig.target_delimiter) ?? ' ',
  };
}

/** Runs of one task are one experiment wherever their files sit; the task version is part of it. */
function experimentOf(task: string, version: unknown): ImportedRun['experiment'] {
  const known = typeof version === 'number' || (typeof version === 'string' && version !== '');
  return namedExperiment(known ? `lm-eval:${task}@${String(version)}` : `lm-eval:${task}`, task);
}

interface SamplesRead {
  merger: SampleMerger;
  warnings: string[];
}

/**
 * Tells the indexer which samples file a run's examples came from when there is exactly one,
 * so their texts may be left in it; examples merged from several files lie in none of them.
 */
function withTextsFile(ctx: ImportContext, files: string[], run: ImportedRun): ImportedRun {
  if (files.length === 1 && run.examples.length > 0) ctx.onTextsFile?.(run, files[0]!);
  return run;
}

async function readSamples(
  files: string[],
  hints: TaskHints,
  ctx: ImportContext,
): Promise<SamplesRead> {
  const merger = new SampleMerger(hints);
  const warnings: string[] = [];
  for (const file of files) {
    warnings.push(
      ...(await readSamplesFile(file, (sample, where) => merger.add(sample, where), ctx)),
    );
  }
  if (merger.duplicates > 0)
    warnings.push(`${merger.duplicates} repeated (doc_id, filter) lines were ignored`);
  return { merger, warnings };
}

/** The value a results file keeps for one task under `key` (configs, versions, n-shot…). */
function perTask(doc: Record<string, unknown>, key: string, task: string): unknown {
  return isRecord(doc[key]) ? doc[key][task] : undefined;
}

/** Everything recorded that can tell two runs of a task apart. */
function settingsOf(
  doc: Record<string, unknown>,
  task: string,
  modelId: string,
  modelArgs: JsonObject | null,
): RunSettings {
  const config = jsonObject(doc.config) ?? {};
  const taskConfig = jsonObject(perTask(doc, 'configs', task)) ?? {};
  const settings = emptySettings();
  settings.model = compact({
    id: modelId,
    revision: str(config.model_revision) ?? str(modelArgs?.revision),
    sha: config.model_sha,
    dtype: config.model_dtype,
    type: config.model,
  });
  const datasetKwargs = jsonObject(taskConfig.dataset_kwargs);
  settings.dataset = taskConfig.dataset_path
    ? compact({
        id: taskConfig.dataset_path,
        name: taskConfig.dataset_name,
        split: taskConfig.test_split ?? taskConfig.validation_split,
        revision: datasetKwargs?.revision ?? taskConfig.revision,
        data_files: datasetKwargs?.data_files,
      })
    : null;
  const generation = {
    ...jsonObject(taskConfig.generation_kwargs),
    ...keyValuesOf(config.gen_kwargs),
  };
  settings.generation = Object.keys(generation).length > 0 ? generation : null;
  const chatTemplate = str(doc.chat_template);
  settings.config = compact({
    model_args: modelArgs,
    num_fewshot: perTask(doc, 'n-shot', task),
    task_version: perTask(doc, 'versions', task),
    output_type: taskConfig.output_type,
    metric_list: taskConfig.metric_list,
    batch_size: config.batch_size,
    limit: config.limit,
    lm_eval_version: doc.lm_eval_version,
    fewshot_as_multiturn: doc.fewshot_as_multiturn,
    // The template's hash when lm-eval wrote one; the template itself (short or absent) else.
    chat_template_sha: doc.chat_template_sha,
    chat_template: doc.chat_template_sha ? null : chatTemplate || null,
    system_instruction: doc.system_instruction,
    system_instruction_sha: doc.system_instruction_sha,
    random_seed: config.random_seed,
    numpy_seed: config.numpy_seed,
    torch_seed: config.torch_seed,
    fewshot_seed: config.fewshot_seed,
  });
  return settings;
}

/** What a results file says of the whole evaluation, shared by the runs of its tasks. */
interface Evaluation {
  doc: Record<string, unknown>;
  resultsFile: string;
  modelArgs: JsonObject | null;
  modelId: string;
  project: string;
  dateId: string | null;
  started: number | null;
  duration: number | null;
}

function evaluationOf(doc: Record<string, unknown>, resultsFile: string): Evaluation {
  const config = jsonObject(doc.config) ?? {};
  const modelArgs = keyValuesOf(config.model_args);
  const folder = path.dirname(path.resolve(resultsFile));
  return {
    doc,
    resultsFile,
    modelArgs,
    // API models name the model in model_args ("model=gpt-4o-mini"), local ones as "pretrained".
    modelId:
      str(doc.model_name) ??
      str(modelArgs?.pretrained) ??
      str(modelArgs?.model) ??
      str(config.model) ??
      'unknown model',
    // <output_path>/<model_name_sanitized>/results_*.json: the output folder is the project.
    project: path.basename(
      path.basename(folder) === doc.model_name_sanitized ? path.dirname(folder) : folder,
    ),
    dateId: resultsDateId(path.basename(resultsFile)),
    started: num(doc.date),
    duration: num(numeric(doc.total_evaluation_time_seconds)),
  };
}

/** Which task each samples file belongs to, and a warning for each that names none. */
function samplesByTask(
  files: string[],
  tasks: string[],
  modelArgs: string | null,
): { byTask: Map<string, string[]>; warnings: string[] } {
  const byTask = new Map<string, string[]>();
  const warnings: string[] = [];
  for (const file of files) {
    const task = taskOfSamplesFile(path.basename(file), tasks, modelArgs);
    if (task !== null) byTask.set(task, [...(byTask.get(task) ?? []), file]);
    else
      warnings.push(`${path.basename(file)} names no task in this results file and was not read`);
  }
  return { byTask, warnings };
}

/** A task with no samples file, or a samples file that disagrees with the results' count. */
function coverageWarnings(
  doc: Record<string, unknown>,
  task: string,
  hasSamples: boolean,
  isGroup: boolean,
  documents: number,
): string[] {
  const warnings: string[] = [];
  if (!hasSamples && !isGroup) {
    warnings.push(
      `no samples_${task}_*.jsonl beside the results, so this run has metrics but no examples (lm_eval writes them with --log_samples)`,
    );
  }
  const effective = num(jsonObject(perTask(doc, 'n-samples', task))?.effective);
  if (documents > 0 && effective !== null && effective !== documents) {
    warnings.push(
      `the results count ${effective} samples but the samples file has ${documents} documents`,
    );
  }
  return warnings;
}

async function taskRun(
  evaluation: Evaluation,
  task: string,
  metrics: JsonObject,
  samples: { files: string[] | undefined; warnings: string[] },
  ctx: ImportContext,
): Promise<ImportedRun> {
  const { doc, resultsFile, modelArgs, modelId, dateId, started, duration } = evaluation;
  const config = jsonObject(doc.config) ?? {};
  const taskConfig = jsonObject(perTask(doc, 'configs', task)) ?? {};
  const { merger, warnings: readWarnings } = await readSamples(
    samples.files ?? [],
    hintsOf(taskConfig),
    ctx,
  );
  const examples = [...merger.docs.values()];
  const subtasks = perTask(doc, 'group_subtasks', task);
  const isGroup = Array.isArray(subtasks) && subtasks.length > 0;
  const { alias: _alias, ...reported } = metrics;
  const fields = new Set(examples.flatMap((example) => Object.keys(example.fields)));
  const identity = `${dateId ?? started ?? resultsFile}|${modelId}|${JSON.stringify(modelArgs)}|${task}`;
  return withTextsFile(ctx, samples.files ?? [], {
    runId: `lm-eval-${sha256Text(identity).slice(0, 24)}`,
    format: 'lm-eval',
    formatVersion: str(doc.lm_eval_version),
    project: evaluation.project,
    experiment: experimentOf(task, perTask(doc, 'versions', task)),
    condition: namedCondition(modelId),
    settings: settingsOf(doc, task, modelId, modelArgs),
    codeCommit: str(doc.git_hash),
    startedAt: isoFromSeconds(started),
    finishedAt: started !== null && duration !== null ? isoFromSeconds(started + duration) : null,
    state: 'completed',
    seed: int(config.random_seed),
    metrics: reported,
    metricDefinitions: definitionsOf(
      reported,
      jsonObject(perTask(doc, 'higher_is_better', task)) ?? {},
      fields,
    ),
    provenance: compact({
      producer: compact({ name: 'lm-evaluation-harness', version: str(doc.lm_eval_version) }),
      transformers_version: doc.transformers_version,
      model_source: doc.model_source,
      task_hash: perTask(doc, 'task_hashes', task),
      n_samples: perTask(doc, 'n-samples', task),
      subtasks: isGroup ? subtasks : null,
    }),
    warnings: [
      ...samples.warnings,
      ...readWarnings,
      ...coverageWarnings(doc, task, samples.files !== undefined, isGroup, examples.length),
    ],
    examples,
  });
}

async function importResults(
  unit: SourceUnit,
  ctx: ImportContext,
  value: unknown,
): Promise<ImportedRun[]> {
  const [resultsFile, ...sampleFiles] = unit.files as [string, ...string[]];
  if (!isLmEvalResults(value)) {
    throw new ImportProblem(
      'not an lm-evaluation-harness results file (it needs "results" and "versions" objects)',
    );
  }
  const evaluation = evaluationOf(value as Record<string, unknown>, resultsFile);
  const results = evaluation.doc.results as Record<string, JsonObject>;
  const modelArgsText = str(jsonObject(evaluation.doc.config)?.model_args);
  const { byTask, warnings } = samplesByTask(sampleFiles, Object.keys(results), modelArgsText);
  const runs: ImportedRun[] = [];
  for (const [task, metrics] of Object.entries(results)) {
    const samples = { files: byTask.get(task), warnings };
    runs.push(await taskRun(evaluation, task, metrics, samples, ctx));
  }
  return runs;
}

/**
 * Samples files whose results file is missing (never written, or not copied along): one run
 * per task, with examples but no metrics, model or settings.
 */
async function importOrphanSamples(unit: SourceUnit, ctx: ImportContext): Promise<ImportedRun[]> {
  const runs: ImportedRun[] = [];
  for (const file of unit.files) {
    const name = path.basename(file);
    const task = samplesFileTask(name)?.task ?? name;
    const { merger, warnings } = await readSamples(
      [file],
      { outputType: null, targetDelimiter: ' ' },
      ctx,
    );
    const settings = emptySettings();
    settings.config = { task };
    const run: ImportedRun = {
      runId: `lm-eval-${sha256Text(`samples only|${locationOf(file)}`).slice(0, 24)}`,
      format: 'lm-eval',
      formatVersion: null,
      project: path.basename(path.dirname(path.resolve(file))),
      experiment: experimentOf(task, null),
      condition: namedCondition('unknown model'),
      settings,
      codeCommit: null,
      startedAt: null,
      finishedAt: null,
      state: 'completed',
      seed: null,
      metrics: {},
      metricDefinitions: {},
      provenance: { producer: { name: 'lm-evaluation-harness' } },
      warnings: [
        `no results file beside ${name}, so this run has examples but no reported metrics, model or settings`,
        ...warnings,
      ],
      examples: [...merger.docs.values()],
    };
    runs.push(withTextsFile(ctx, [file], run));
  }
  return runs;
}

/** A unit led by a samples file has no results file (scan.ts groups orphans that way). */
export function isOrphanSamplesUnit(unit: SourceUnit): boolean {
  return unit.files.length > 0 && unit.files.every((file) => samplesFileTask(path.basename(file)));
}

export async function importLmEval(
  unit: SourceUnit,
  ctx: ImportContext,
  parsed?: unknown,
): Promise<ImportedRun[]> {
  const [resultsFile] = unit.files;
  if (!resultsFile) throw new ImportProblem('no results file');
  if (parsed === undefined && isOrphanSamplesUnit(unit)) return importOrphanSamples(unit, ctx);
  const value = parsed ?? parsePythonJson(await readTextFile(resultsFile, { signal: ctx.signal }));
  return importResults(unit, ctx, value);
}
