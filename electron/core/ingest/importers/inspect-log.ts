import { basename, dirname } from 'node:path';
import {
  namedCondition,
  namedExperiment,
  type ImportedExample,
  type ImportedExperiment,
  type ImportedRun,
  type JsonObject,
  type MetricDefinition,
  type RunSettings,
  type RunState,
} from '../../../../shared/model';
import type { Trace } from '../../../../shared/trace';
import { epochsOf, mergeEpochs, reducerOf, type EpochRecord } from './inspect-epochs';
import {
  fieldNamesOf,
  lastAssistantText,
  meanOfField,
  messagesText,
  outputText,
  scoreFields,
  targetText,
  type Resolve,
} from './inspect-common';
import {
  clip,
  compact,
  int,
  isRecord,
  jsonObject,
  jsonValue,
  nonEmptyObject,
  renderSettings,
  str,
  utcIso,
} from './json-values';
import { inspectSampleTrace } from './trace-steps';

/** Monolith samples pool long strings as `attachment://<hash>` keys of `sample.attachments`. */
export function attachmentResolver(attachments: unknown): Resolve {
  if (!isRecord(attachments)) return (text) => text;
  return (text) => {
    if (!text.startsWith('attachment://')) return text;
    const content = attachments[text.slice('attachment://'.length)];
    return typeof content === 'string' ? content : text;
  };
}

/** An EvalSample (or a sample summary, which lacks output and messages) as one epoch. */
export function sampleToEpoch(
  sample: Record<string, unknown>,
  resolve: Resolve,
): EpochRecord | null {
  const id = sample.id;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  const error = isRecord(sample.error) ? str(sample.error.message) : str(sample.error);
  return {
    example: {
      id: String(id),
      input:
        typeof sample.input === 'string'
          ? resolve(sample.input)
          : messagesText(sample.input, resolve),
      output: outputText(sample.output, resolve) || lastAssistantText(sample.messages, resolve),
      fields: scoreFields(sample.scores),
      target:
        typeof sample.target === 'string' ? resolve(sample.target) : targetText(sample.target),
      error,
    },
    epoch: int(sample.epoch) ?? 1,
    scores: sample.scores,
    trace: inspectSampleTrace(sample, resolve),
  };
}

export const NO_SAMPLES =
  'the log contains no samples (written with log_samples=False, or stopped before any sample finished): metrics only';

const STATES: Record<string, RunState> = {
  success: 'completed',
  error: 'failed',
  cancelled: 'interrupted',
  started: 'running',
};

function statusWarning(status: string, log: Record<string, unknown>): string | null {
  switch (status) {
    case 'success':
      return null;
    case 'error': {
      const message = isRecord(log.error) ? str(log.error.message) : null;
      return `the eval ended with an error${message ? `: ${message.split('\n')[0]}` : ''}`;
    }
    case 'cancelled':
      return 'the eval was cancelled: its metrics cover only the samples that finished';
    case 'started':
      return 'the log has no final header (status "started"): the eval is still running or crashed; imported as incomplete';
    default:
      return `unknown eval status "${status}"`;
  }
}

/** Retry, timeout and connection limits change how requests were sent, not what came back. */
const TRANSPORT_KEYS = new Set(['max_retries', 'timeout', 'attempt_timeout', 'max_connections']);

/** Concurrency and logging switches change how an eval ran, never what it measured. */
function isOperational(key: string): boolean {
  return (
    key.startsWith('log_') ||
    ['max_samples', 'max_tasks', 'max_subprocesses', 'max_sandboxes'].includes(key) ||
    key === 'sandbox_cleanup' ||
    key === 'score_display'
  );
}

function evalConfig(
  spec: Record<string, unknown>,
  plan: Record<string, unknown>,
  epochs: number | null,
): JsonObject | null {
  const config: JsonObject = {};
  for (const [key, value] of Object.entries(jsonObject(spec.config) ?? {})) {
    if (!isOperational(key)) config[key] = value;
  }
  // task_args, the solver chain (with its prompts), the task's version and the sandbox shape
  // the eval as much as the config; the number of epochs changes what each score means.
  Object.assign(
    config,
    compact({
      epochs,
      task_args: nonEmptyObject(spec.task_args),
      task_version: spec.task_version,
      solver: spec.solver,
      solver_args: nonEmptyObject(spec.solver_args),
      plan: Array.isArray(plan.steps) && plan.steps.length > 0 ? plan.steps : null,
      sandbox: spec.sandbox,
    }),
  );
  return nonEmptyObject(config);
}

/**
 * Each importer sees one log, so the condition name is the model plus every setting that can
 * tell two logs of a task apart (model_args, task_args, the generate config minus the seed),
 * each key rendered flat. Several logs that differ only in the solver chain share a name; the
 * settings (and the identity hash derived from them) still tell them apart.
 */
function conditionName(
  model: string,
  spec: Record<string, unknown>,
  generation: JsonObject | null,
): string {
  const { seed: _seed, ...generationWithoutSeed } = generation ?? {};
  const parts = [
    ...renderSettings(jsonObject(spec.model_args) ?? {}),
    ...renderSettings(jsonObject(spec.task_args) ?? {}),
    ...renderSettings(generationWithoutSeed),
  ];
  return clip([model, ...parts].join(' '));
}

function metricsOf(
  log: Record<string, unknown>,
  results: Record<string, unknown>,
  examples: ImportedExample[],
): { metrics: JsonObject; definitions: Record<string, MetricDefinition> } {
  const metrics: JsonObject = {};
  const definitions: Record<string, MetricDefinition> = {};
  const fieldNames = fieldNamesOf(examples);
  for (const score of Array.isArray(results.scores) ? results.scores : []) {
    if (!isRecord(score) || !isRecord(score.metrics)) continue;
    const scorer = str(score.scorer);
    const name = str(score.name) ?? scorer ?? 'score';
    for (const [key, metric] of Object.entries(score.metrics)) {
      if (!isRecord(metric)) continue;
      const metricName = str(metric.name) ?? key;
      const full = `${name}/${metricName}`;
      metrics[full] = jsonValue(metric.value);
      // A score's field holds its first reducer's values; another reducer's metric is not
      // their mean.
      const ofField = !str(score.reducer) || score.reducer === reducerOf(log, name);
      // Scorer, reducer and params are part of the definition, so runs scored differently
      // (another grader prompt, another reducer) show a definition mismatch.
      definitions[full] = {
        direction: null,
        example_field: ofField
          ? meanOfField(metricName, [name, `${scorer}/${name}`], fieldNames)
          : null,
        ...compact({
          scorer,
          reducer: score.reducer,
          params: nonEmptyObject(score.params),
          metric_params: nonEmptyObject(metric.params ?? metric.options),
        }),
      };
    }
  }
  return { metrics, definitions };
}

/** Experiment = the task; a new task_version is a new experiment (its samples or scoring changed). */
function inspectExperiment(spec: Record<string, unknown>): ImportedExperiment {
  const task = str(spec.task) ?? 'unknown-task';
  const version = spec.task_version;
  const unversioned = version === undefined || version === null || version === 0 || version === '0';
  return namedExperiment(
    unversioned ? task : `${task}@${String(version)}`,
    str(spec.task_display_name) ?? task,
  );
}

/** The generate config without transport settings; logs before ~0.3.50 kept it in the plan. */
function generationOf(
  spec: Record<string, unknown>,
  plan: Record<string, unknown>,
): JsonObject | null {
  return nonEmptyObject(
    Object.fromEntries(
      Object.entries({
        ...(jsonObject(plan.config) ?? {}),
        ...(jsonObject(spec.model_generate_config) ?? {}),
      }).filter(([key]) => !TRANSPORT_KEYS.has(key)),
    ),
  );
}

/** run_id is shared by every task of one eval() call; eval_id (newer logs) is per task. */
function runIdOf(spec: Record<string, unknown>, path: string): string {
  return (
    str(spec.eval_id) ??
    ([str(spec.run_id), str(spec.task_id)].filter(Boolean).join(':') || basename(path))
  );
}

function inspectSettings(
  spec: Record<string, unknown>,
  plan: Record<string, unknown>,
  generation: JsonObject | null,
  epochs: number | null,
): RunSettings {
  const dataset = isRecord(spec.dataset) ? spec.dataset : {};
  return {
    model: compact({
      id: str(spec.model) ?? 'unknown-model',
      args: nonEmptyObject(spec.model_args),
      roles: nonEmptyObject(spec.model_roles),
      base_url: spec.model_base_url,
    }),
    dataset: nonEmptyObject(
      compact({
        id: str(dataset.name) ?? str(dataset.location),
        location: dataset.location,
        revision: dataset.revision,
        samples: dataset.samples,
        shuffled: dataset.shuffled,
      }),
    ),
    sae: null,
    intervention: null,
    generation,
    config: evalConfig(spec, plan, epochs),
    params: null,
  };
}

function inspectProvenance(
  log: Record<string, unknown>,
  spec: Record<string, unknown>,
  status: string,
): JsonObject {
  const stats = isRecord(log.stats) ? log.stats : {};
  const results = isRecord(log.results) ? log.results : {};
  return compact({
    status,
    eval_id: spec.eval_id,
    run_id: spec.run_id,
    eval_set_id: spec.eval_set_id,
    task_id: spec.task_id,
    task_file: spec.task_file,
    task_registry_name: spec.task_registry_name,
    created: spec.created,
    revision: isRecord(spec.revision) ? spec.revision : null,
    packages: spec.packages,
    model_base_url: spec.model_base_url,
    model_usage: stats.model_usage,
    total_samples: results.total_samples,
    completed_samples: results.completed_samples,
    error: isRecord(log.error) ? log.error.message : null,
  });
}

/**
 * An EvalLog header plus its examples as one run. Project = the folder the log sits in, the way
 * people group their evals on disk.
 */
export function buildInspectRun(
  log: Record<string, unknown>,
  path: string,
  epochs: EpochRecord[],
  reductions: unknown,
  warnings: string[],
): ImportedRun {
  const examples = mergeEpochs(epochs, log, reductions, warnings);
  const traces = firstEpochTraces(epochs);
  const spec = isRecord(log.eval) ? log.eval : {};
  const plan = isRecord(log.plan) ? log.plan : {};
  const stats = isRecord(log.stats) ? log.stats : {};
  const results = isRecord(log.results) ? log.results : {};
  const revision = isRecord(spec.revision) ? spec.revision : null;

  const status = str(log.status) ?? 'unknown';
  const warning = statusWarning(status, log);
  if (warning) warnings.push(warning);
  if (log.invalidated === true) warnings.push('the log is marked invalidated');

  const model = str(spec.model) ?? 'unknown-model';
  const generation = generationOf(spec, plan);
  const { metrics, definitions } = metricsOf(log, results, examples);

  return {
    runId: runIdOf(spec, path),
    format: 'inspect',
    formatVersion: int(log.version) !== null ? String(log.version) : null,
    project: basename(dirname(path)) || (str(spec.task) ?? 'unknown-task'),
    experiment: inspectExperiment(spec),
    condition: namedCondition(conditionName(model, spec, generation)),
    settings: inspectSettings(spec, plan, generation, epochsOf(log, epochs)),
    codeCommit: revision ? str(revision.commit) : null,
    startedAt: utcIso(stats.started_at) ?? utcIso(spec.created),
    finishedAt: status === 'started' ? null : utcIso(stats.completed_at),
    state: STATES[status] ?? 'unknown',
    seed: int(generation?.seed) ?? int(jsonObject(spec.config)?.seed),
    metrics,
    metricDefinitions: definitions,
    provenance: inspectProvenance(log, spec, status),
    warnings,
    examples,
    ...(traces.size > 0 ? { traces } : {}),
  };
}

/** One transcript per example: a merged sample shows its first epoch's. */
function firstEpochTraces(epochs: EpochRecord[]): Map<string, Trace> {
  const traces = new Map<string, { epoch: number; trace: Trace }>();
  for (const record of epochs) {
    if (!record.trace) continue;
    const seen = traces.get(record.example.id);
    if (!seen || record.epoch < seen.epoch)
      traces.set(record.example.id, { epoch: record.epoch, trace: record.trace });
  }
  return new Map([...traces].map(([id, t]) => [id, t.trace]));
}
