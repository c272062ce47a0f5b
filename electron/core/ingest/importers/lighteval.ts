import path from 'node:path';
import type { AsyncBuffer } from 'hyparquet';
import {
  emptySettings,
  namedCondition,
  namedExperiment,
  type Direction,
  type ImportedExample,
  type ImportedRun,
  type JsonObject,
  type MetricDefinition,
} from '../../../../shared/model';
import { sha256Text } from '../hash';
import { ImportProblem, type ImportContext } from '../types';
import { lightevalDirections } from './lighteval-results';
import { layoutOf, QueryIds, sampleOf, type DetailsLayout } from './lighteval-samples';

/** `details_<task>_<date>.parquet`; the task holds `|` (suite|task|few-shot), the date `-`. */
const DETAILS_NAME = /^details_(?<task>.+)_(?<date>\d{4}-\d{2}-\d{2}T[\d.-]+)\.parquet$/;

export function isLightevalDetailsName(file: string): boolean {
  return DETAILS_NAME.test(path.basename(file));
}

/** Rows decoded at once: a row group can hold a whole task, so reads are cut to this many. */
const ROWS_PER_READ = 2_000;

/**
 * Where lighteval put the file: `<output>/details/<model name>/<date>/details_….parquet`, the
 * model name itself holding a `/` (`org/model`). Elsewhere the folder names what it can.
 */
function placeOf(file: string): { model: string; project: string } {
  const parts = path.resolve(file).split(path.sep);
  const details = parts.lastIndexOf('details', parts.length - 3);
  if (details > 0 && details < parts.length - 3)
    return {
      model: parts.slice(details + 1, parts.length - 2).join('/'),
      project: parts[details - 1] || 'lighteval',
    };
  return { model: 'unknown model', project: parts[parts.length - 2] || 'lighteval' };
}

/**
 * The Parquet reader and its codecs, loaded on the first details file: they are a quarter of
 * an index worker's start-up, which every pass pays and few libraries need.
 */
let parquetLibraries: Promise<[typeof import('hyparquet'), typeof import('hyparquet-compressors')]>;

function parquet() {
  parquetLibraries ??= Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
  return parquetLibraries;
}

async function openDetails(file: string) {
  const [{ asyncBufferFromFile, parquetMetadataAsync }] = await parquet();
  try {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    return { buffer, metadata };
  } catch (error) {
    throw new ImportProblem(
      `not a readable Parquet file (${error instanceof Error ? error.message : String(error)}); lighteval may still be writing it`,
    );
  }
}

/** A lighteval `details_*.parquet` file: one task of one model, one run. */
export async function importLighteval(file: string, ctx: ImportContext): Promise<ImportedRun> {
  const name = DETAILS_NAME.exec(path.basename(file))?.groups;
  if (!name) throw new ImportProblem('not a lighteval details file name');
  const { buffer, metadata } = await openDetails(file);
  const [{ parquetSchema }] = await parquet();
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  const layout = layoutOf(columns);
  if (!layout)
    throw new ImportProblem(
      `no lighteval details columns (doc/model_response/metric, or example/predictions/metrics): found ${columns.join(', ')}`,
    );
  const examples = await readExamples(buffer, layout, Number(metadata.num_rows), ctx);
  ctx.onBytes?.(buffer.byteLength);
  const { model, project } = placeOf(file);
  const directions = await lightevalDirections(file, name.task!);
  return runOf({
    task: name.task!,
    date: name.date!,
    model,
    project,
    layout,
    examples,
    directions,
  });
}

async function readExamples(
  file: AsyncBuffer,
  layout: DetailsLayout,
  rows: number,
  ctx: ImportContext,
): Promise<ImportedExample[]> {
  const [{ parquetReadObjects }, { compressors }] = await parquet();
  const examples: ImportedExample[] = [];
  const ids = new QueryIds();
  const taken = new Set<string>();
  for (let start = 0; start < rows; start += ROWS_PER_READ) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const batch = await parquetReadObjects({
      file,
      compressors,
      rowStart: start,
      rowEnd: Math.min(rows, start + ROWS_PER_READ),
    });
    for (const row of batch) {
      const sample = sampleOf(layout, row);
      const id = sample.id ?? ids.next(sample.query);
      if (taken.has(id))
        throw new ImportProblem(`sample id "${id}" appears twice: lighteval writes each once`);
      taken.add(id);
      examples.push({ id, ...sample.example });
    }
  }
  return examples;
}

/** Each score's mean over the samples that have it: the details file reports no aggregate. */
function meansOf(examples: ImportedExample[]): JsonObject {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const { fields } of examples)
    for (const [key, value] of Object.entries(fields)) {
      if (typeof value !== 'number' && typeof value !== 'boolean') continue;
      const s = sums.get(key) ?? { sum: 0, n: 0 };
      s.sum += Number(value);
      s.n += 1;
      sums.set(key, s);
    }
  return Object.fromEntries([...sums].map(([key, s]) => [key, s.sum / s.n]));
}

function runOf(read: {
  task: string;
  date: string;
  model: string;
  project: string;
  layout: DetailsLayout;
  examples: ImportedExample[];
  directions: Map<string, Direction>;
}): ImportedRun {
  const { task, date, model, project, layout, examples, directions } = read;
  const metrics = meansOf(examples);
  const definitions: Record<string, MetricDefinition> = Object.fromEntries(
    Object.keys(metrics).map((key) => [
      key,
      {
        description: `${key}, the mean of the per-sample scores`,
        example_field: key,
        direction: directions.get(key) ?? null,
      },
    ]),
  );
  return {
    runId: `lighteval-${sha256Text(`${model}|${task}|${date}`).slice(0, 24)}`,
    format: 'lighteval',
    formatVersion: `details ${layout}`,
    project,
    experiment: namedExperiment(`lighteval:${task}`, task),
    condition: namedCondition(model),
    settings: { ...emptySettings(), model: { id: model }, dataset: { task } },
    codeCommit: null,
    startedAt: null,
    finishedAt: null,
    state: 'completed',
    seed: null,
    metrics,
    metricDefinitions: definitions,
    provenance: { producer: { name: 'lighteval' }, date_id: date, details_layout: layout },
    warnings: [directionWarning(Object.keys(metrics), directions)],
    examples,
  };
}

function directionWarning(metrics: string[], directions: Map<string, Direction>): string {
  const means = 'lighteval details hold per-sample scores only: the run metrics are their means';
  const unsaid = metrics.filter((m) => !directions.has(m));
  if (unsaid.length === 0) return `${means}; their directions are those results_<date>.json gives`;
  if (unsaid.length === metrics.length)
    return `${means}, and no metric says whether higher is better (no results_<date>.json beside the details says it)`;
  return `${means}; results_<date>.json gives no direction for ${unsaid.join(', ')}`;
}
