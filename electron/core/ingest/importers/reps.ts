import { promises as fsp } from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  namedCondition,
  namedExperiment,
  type ImportedExample,
  type ImportedRun,
  type JsonObject,
  type JsonValue,
  type MetricDefinition,
  type RunState,
} from '../../../../shared/model';
import { readJsonLines } from '../json-lines';
import { describeFsError, isAbortError, parseJson, readTextFile } from '../read';
import { ImportProblem, type ImportContext, type SourceUnit } from '../types';
import { dedupeExamples, fieldNamesOf, meanOfField, targetText } from './inspect-common';
import {
  clip,
  compact,
  int,
  isRecord,
  jsonObject,
  nonEmptyObject,
  num,
  renderSettings,
  sameJson,
  str,
  utcIso,
} from './json-values';
import { RepsStream } from './reps-stream';
import type { Trace } from '../../../../shared/trace';

/** The runner rewrites run.json every 10 s (HEARTBEAT_S): three missed beats means no runner. */
const LIVE_WINDOW_MS = 30_000;

const FINAL_STATES = new Set<RunState>(['completed', 'failed', 'interrupted']);

type Card = Record<string, unknown>;

function section(card: Card | null, name: string): Record<string, unknown> {
  const value = card?.[name];
  return isRecord(value) ? value : {};
}

/** Problems from the shared readers name no file; a run directory has two. */
function inFile(name: string, error: unknown): unknown {
  if (error instanceof ImportProblem) return new ImportProblem(`${name}: ${error.message}`, 'reps');
  const code = error && typeof error === 'object' && 'code' in error ? error.code : null;
  if (typeof code === 'string' && !isAbortError(error)) {
    return new ImportProblem(`${name}: ${describeFsError(error)}`, 'reps');
  }
  return error;
}

async function readCard(path: string, ctx: ImportContext): Promise<Card> {
  let text: string;
  try {
    text = await readTextFile(path, { signal: ctx.signal });
  } catch (error) {
    throw inFile('run.json', error);
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw inFile('run.json is not valid JSON', error);
  }
  if (!isRecord(value)) {
    throw new ImportProblem('run.json is not a REPS run card: expected a JSON object.', 'reps');
  }
  return value;
}

/**
 * REPS has no projects: the data dir that holds `runs/` names the project (docs/formats-reps.md,
 * "Projects").
 */
function projectOf(runDir: string): string {
  const runsDir = dirname(dirname(runDir));
  return basename(runsDir) === 'runs' ? basename(dirname(runsDir)) || 'reps' : 'reps';
}

/** Without a run.end the runner is either still writing or gone; recent writes tell them apart. */
async function liveOrInterrupted(files: string[]): Promise<RunState> {
  let newest = 0;
  for (const file of files) {
    const stat = await fsp.stat(file).catch((error: unknown) => {
      throw inFile(basename(file), error);
    });
    newest = Math.max(newest, stat.mtimeMs);
  }
  return Date.now() - newest < LIVE_WINDOW_MS ? 'running' : 'interrupted';
}

function stateOf(value: unknown): RunState | 'incomplete' {
  if (value === 'running' || value === 'provisioning' || value === undefined) return 'incomplete';
  return FINAL_STATES.has(value as RunState) ? (value as RunState) : 'unknown';
}

function definitionsOf(list: unknown): Record<string, MetricDefinition> {
  const definitions: Record<string, MetricDefinition> = {};
  if (!Array.isArray(list)) return definitions;
  for (const item of list) {
    const name = isRecord(item) ? str(item.name) : null;
    if (!isRecord(item) || name === null) continue;
    // REPS declarations carry no direction (docs/formats-reps.md, "Results").
    definitions[name] = {
      label: str(item.label),
      description: str(item.description),
      details: str(item.details),
      unit: str(item.unit),
      type: (item.type ?? null) as JsonValue,
      direction: null,
      example_field: null,
    };
  }
  return definitions;
}

function conditionName(hash: string | null, params: JsonObject): string {
  const rendered = renderSettings(params).join(' ');
  const head = hash ? hash.slice(0, 7) : 'unknown-condition';
  return clip(rendered ? `${head} ${rendered}` : head);
}

function commitOf(fetchRef: string | null): string | null {
  return fetchRef?.match(/\/([0-9a-f]{40})$/)?.[1] ?? null;
}

async function readStream(
  path: string,
  ctx: ImportContext,
  warnings: string[],
): Promise<RepsStream> {
  const stream = new RepsStream();
  const name = basename(path);
  try {
    // A run that was just provisioned has an empty stream; the card still says what it is.
    if ((await fsp.stat(path)).size === 0) return stream;
    const read = await readJsonLines(path, (value) => stream.add(value), {
      signal: ctx.signal,
      onBytes: (bytes) => ctx.onBytes?.(bytes),
    });
    warnings.push(...read.warnings.map((warning) => `${name}: ${warning}`));
  } catch (error) {
    throw inFile(name, error);
  }
  warnings.push(...stream.warnings());
  return stream;
}

async function loadSources(
  unit: SourceUnit,
  ctx: ImportContext,
  warnings: string[],
): Promise<{ card: Card | null; stream: RepsStream | null }> {
  const byName = new Map(unit.files.map((file) => [basename(file), file]));
  const cardPath = byName.get('run.json') ?? null;
  const eventsPath = byName.get('events.jsonl') ?? byName.get('events.jsonl.zst') ?? null;
  if (!cardPath && !eventsPath) {
    throw new ImportProblem(
      'neither run.json nor events.jsonl is in this folder: not a REPS run directory.',
      'reps',
    );
  }
  if (byName.has('events.jsonl') && byName.has('events.jsonl.zst')) {
    warnings.push('both events.jsonl and events.jsonl.zst are present; events.jsonl was read');
  }
  const card = cardPath ? await readCard(cardPath, ctx) : null;
  let stream = eventsPath ? await readStream(eventsPath, ctx, warnings) : null;
  if (eventsPath && stream?.records === 0) {
    if (!card) {
      throw new ImportProblem(
        `${basename(eventsPath)} has no complete records and there is no run.json.`,
        'reps',
      );
    }
    warnings.push(`${basename(eventsPath)} has no complete records: imported from run.json alone`);
    stream = null;
  }
  if (!card) warnings.push('run.json is missing: imported from the event stream alone');
  if (!eventsPath) {
    warnings.push(
      'events.jsonl is missing: imported from run.json alone (no examples; the card could not be checked against the stream)',
    );
  }
  return { card, stream };
}

/** Declared results only, from the stream when there is one (docs/formats-reps.md, "Results"). */
function resultsOf(
  definitions: Record<string, MetricDefinition>,
  stream: RepsStream | null,
  derived: Record<string, unknown>,
  warnings: string[],
): JsonObject {
  const cardResults = jsonObject(derived.results);
  if (!stream) return cardResults ?? {};
  const results: JsonObject = {};
  const declared = Object.keys(definitions);
  for (const [name, value] of stream.results) {
    // A stream with no declarations at all is a legacy (ADB-era) one: keep everything.
    if (declared.length === 0 || name in definitions) results[name] = value;
  }
  // A card behind the stream is just stale (it is rewritten every 10 s); one at the same
  // seq that says something else was edited or written by a different projection.
  if (cardResults && int(derived.last_seq) === stream.lastSeq && !sameJson(cardResults, results)) {
    warnings.push("run.json's derived results differ from the stream's; the stream's were used");
  }
  return results;
}

/** The card's sections; a missing card or section reads as empty. */
interface CardSections {
  identity: Record<string, unknown>;
  inputs: Record<string, unknown>;
  lifecycle: Record<string, unknown>;
  derived: Record<string, unknown>;
  provenance: Record<string, unknown>;
}

function sectionsOf(card: Card | null): CardSections {
  return {
    identity: section(card, 'identity'),
    inputs: section(card, 'inputs'),
    lifecycle: section(card, 'lifecycle'),
    derived: section(card, 'derived'),
    provenance: section(card, 'provenance'),
  };
}

/** Where the card and the stream name a different run, experiment or condition. */
function identityWarnings(stream: RepsStream | null, identity: Record<string, unknown>): string[] {
  const pairs: [string, unknown, unknown][] = [
    ['run', stream?.run, identity.run],
    ['experiment', stream?.experiment, identity.experiment],
    ['condition', stream?.start?.condition, identity.condition],
  ];
  return pairs
    .filter(([, fromStream, fromCard]) => fromStream != null && fromCard != null)
    .filter(([, fromStream, fromCard]) => fromStream !== fromCard)
    .map(([field]) => `run.json and the stream disagree on ${field}; the stream's value was used`);
}

function examplesOf(stream: RepsStream | null, warnings: string[]): ImportedExample[] {
  if (!stream) return [];
  return dedupeExamples(
    stream.samples.map((sample) => ({
      id: sample.id,
      ...stream.textsOf(sample),
      fields: sample.scores,
      target: targetText(sample.target),
      error: sample.error,
    })),
    warnings,
  );
}

function tracesOf(stream: RepsStream | null): Map<string, Trace> {
  const traces = new Map<string, Trace>();
  for (const sample of stream?.samples ?? []) {
    const trace = stream!.traceOf(sample);
    if (trace) traces.set(sample.id, trace);
  }
  return traces;
}

/** The declared results' definitions, plus Inspect's aggregate metrics tied to their field. */
function metricDefinitionsOf(
  definitions: Record<string, MetricDefinition>,
  stream: RepsStream | null,
  examples: ImportedExample[],
): Record<string, MetricDefinition> {
  const fieldNames = fieldNamesOf(examples);
  const metricDefinitions = { ...definitions };
  for (const name of Object.keys(stream?.inspectMetrics ?? {})) {
    const cut = name.lastIndexOf('/');
    const field =
      cut > 0 ? meanOfField(name.slice(cut + 1), [name.slice(0, cut)], fieldNames) : null;
    metricDefinitions[name] = { direction: null, example_field: field };
  }
  return metricDefinitions;
}

/** The run's final state: from run.end, else the card, else how recently the files changed. */
async function finalState(
  stream: RepsStream | null,
  lifecycle: Record<string, unknown>,
  files: string[],
  warnings: string[],
): Promise<RunState> {
  const end = stream ? stream.end : null;
  const state = stream ? (end ? stateOf(end.state) : 'incomplete') : stateOf(lifecycle.state);
  if (state === 'incomplete') {
    const guessed = await liveOrInterrupted(files);
    warnings.push('no run.end record: imported as incomplete');
    return guessed;
  }
  if (state === 'failed' || state === 'interrupted') {
    const exitCode = int(end?.exit_code ?? lifecycle.exit_code);
    warnings.push(`the run ended ${state}${exitCode !== null ? ` (exit code ${exitCode})` : ''}`);
  }
  return state;
}

/** `v<vocabulary>/schema<n>`, from what is known of either. */
function formatVersionOf(
  stream: RepsStream | null,
  identity: Record<string, unknown>,
): string | null {
  const vocabulary = stream?.vocabulary ?? null;
  const schema = stream?.schema ?? int(identity.schema);
  const version = [
    vocabulary !== null ? `v${vocabulary}` : '',
    schema !== null ? `schema${schema}` : '',
  ]
    .filter(Boolean)
    .join('/');
  return version || null;
}

function provenanceOf(stream: RepsStream | null, card: CardSections): JsonObject {
  const { derived, lifecycle, provenance } = card;
  const start = stream?.start ?? null;
  const end = stream ? stream.end : null;
  return compact({
    source: start?.source ?? provenance.source,
    fetch_ref: str(start?.fetch_ref ?? provenance.fetch_ref),
    tree_hash: start?.tree_hash ?? provenance.tree_hash,
    runtime: start?.runtime ?? provenance.runtime,
    served_models: stream ? [...stream.servedModels].sort() : derived.served_models,
    usage: stream ? stream.usage : derived.usage,
    counts: stream
      ? { llm_calls: stream.llmCalls, failed_calls: stream.failedCalls, by_kind: stream.byKind }
      : derived.counts,
    last_status: stream ? stream.lastStatus : derived.last_status,
    duration_s: num(end?.duration_s ?? lifecycle.duration_s),
    exit_code: int(end?.exit_code ?? lifecycle.exit_code),
    producer: stream?.producer,
    inspect: stream?.inspectProvenance,
  });
}

/**
 * One REPS run directory (docs/formats-reps.md) → one run. The stream is the evidence and run.json
 * a cache of it, so every value is taken from the stream when there is one and from the card
 * otherwise; `workspace/` is never read.
 */
export async function importRepsRun(unit: SourceUnit, ctx: ImportContext): Promise<ImportedRun[]> {
  const warnings: string[] = [];
  const { card, stream } = await loadSources(unit, ctx, warnings);
  const sections = sectionsOf(card);
  const { identity, inputs, lifecycle, derived } = sections;
  const start = stream?.start ?? null;
  if (stream && !start) warnings.push('the stream has no run.start record');
  warnings.push(...identityWarnings(stream, identity));

  const experiment = stream?.experiment ?? str(identity.experiment);
  if (!experiment)
    warnings.push('no experiment name is recorded: the run is grouped by project only');
  const conditionHash = str(start?.condition) ?? str(identity.condition);
  if (!conditionHash) warnings.push('no condition hash is recorded');
  const params = jsonObject(start?.params) ?? jsonObject(inputs.params) ?? {};
  const definitions = definitionsOf(
    start?.result_definitions ?? section(card, 'definitions').results,
  );
  const results = resultsOf(definitions, stream, derived, warnings);
  const examples = examplesOf(stream, warnings);
  const traces = tracesOf(stream);
  const state = await finalState(stream, lifecycle, unit.files, warnings);
  const model = str(params.model);

  return [
    {
      runId: stream?.run ?? str(identity.run) ?? basename(unit.path),
      format: 'reps',
      formatVersion: formatVersionOf(stream, identity),
      project: projectOf(unit.path),
      experiment: experiment ? namedExperiment(experiment, experiment) : null,
      condition: {
        ...namedCondition(conditionName(conditionHash, params)),
        identityHash: conditionHash,
      },
      settings: {
        model: model ? { id: model } : null,
        dataset: nonEmptyObject(compact(jsonObject(stream?.inspectProvenance?.dataset) ?? {})),
        sae: null,
        intervention: null,
        generation: null,
        config: null,
        params,
      },
      codeCommit: commitOf(str(start?.fetch_ref ?? sections.provenance.fetch_ref)),
      startedAt: utcIso(stream?.startedAt ?? lifecycle.started_at),
      finishedAt: utcIso(stream ? stream.finishedAt : lifecycle.finished_at),
      state,
      seed: int(start?.seed) ?? int(inputs.seed),
      metrics: { ...results, ...(stream?.inspectMetrics ?? {}) },
      metricDefinitions: metricDefinitionsOf(definitions, stream, examples),
      provenance: provenanceOf(stream, sections),
      warnings,
      examples,
      ...(traces.size > 0 ? { traces } : {}),
    },
  ];
}
