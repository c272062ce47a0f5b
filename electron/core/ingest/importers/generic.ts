import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  emptySettings,
  type ImportedExample,
  type ImportedRun,
  type JsonObject,
  type JsonValue,
  type MetricDefinition,
  type Reproduces,
} from '../../../../shared/model';
import { passFailByDefault, tallyFields } from '../../../../shared/compare/criteria';
import { sha256Text } from '../hash';
import { locationOf } from '../location';
import { readJsonLines } from '../json-lines';
import { parseJson, readTextFile } from '../read';
import { MAX_EXAMPLES_PER_RUN, tooManyExamples } from '../limits';
import { ImportProblem, type ImportContext } from '../types';
import {
  describeType,
  expectSchema,
  metricDefinitionSchema,
  reproducesSchema,
  roleSchema,
  seedOf,
} from './mechlens';
import { csvFileRows, parseCsv, type CsvRow } from './csv-rows';
import { isRecord } from './json-values';

/**
 * Generic per-example files: JSON Lines or CSV with one example per row (docs/formats-generic.md).
 * Run metadata that a row cannot carry comes from an optional `pairwise.json` beside the file.
 */

export const SIDECAR_NAME = 'pairwise.json';

const settingsObject = z.record(z.string(), z.unknown()).optional();
const sidecarRunSchema = z.strictObject({
  run_id: z.string().min(1).optional(),
  project: z.string().min(1).optional(),
  experiment: z
    .strictObject({
      id: z.string().min(1),
      name: z.string().min(1).optional(),
      question: z.string().nullish(),
      claim: z.string().nullish(),
      deviations: z.array(z.string()).optional(),
      reproduces: reproducesSchema.nullish(),
    })
    .optional(),
  model: settingsObject,
  dataset: settingsObject,
  sae: settingsObject,
  intervention: settingsObject,
  generation: settingsObject,
  config: settingsObject,
  condition: z.string().min(1).optional(),
  role: roleSchema.optional(),
  series: z.string().nullish(),
  level: z.number().nullish(),
  expect: expectSchema.optional(),
  compare_to: z.array(z.string()).optional(),
  metric_definitions: z.record(z.string(), metricDefinitionSchema).optional(),
  metrics: z.record(z.string(), z.unknown()).optional(),
});
const sidecarSchema = sidecarRunSchema.extend({
  /** Per-file values, keyed by the data file's name, override the folder-wide ones. */
  files: z.record(z.string(), sidecarRunSchema).optional(),
});
type SidecarRun = z.infer<typeof sidecarRunSchema>;

async function readSidecar(dataFile: string): Promise<SidecarRun> {
  const file = path.join(path.dirname(dataFile), SIDECAR_NAME);
  try {
    await fs.access(file);
  } catch {
    return {};
  }
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (error) {
    throw new ImportProblem(`${SIDECAR_NAME} beside this file: ${(error as Error).message}`);
  }
  const parsed = sidecarSchema.safeParse(parseJson(text, SIDECAR_NAME));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at "${issue.path.join('.')}"` : '';
    throw new ImportProblem(
      `${SIDECAR_NAME} is not valid${where}: ${issue?.message ?? 'unexpected value'}`,
    );
  }
  const { files, ...shared } = parsed.data;
  return { ...shared, ...files?.[path.basename(dataFile)] };
}

/**
 * A plain results file declares no metrics, so its pass/fail fields (a boolean `correct`, a
 * column of pass and fail) got counts of improved and regressed examples but no difference with
 * an interval. Each such field is made a metric of its own, named after it and said to be
 * derived; a sidecar that declares any metric is taken as the whole list.
 */
function derivedMetrics(examples: ImportedExample[]): Record<string, MetricDefinition> {
  const { seen, nonScalar } = tallyFields([examples]);
  const derived: Record<string, MetricDefinition> = {};
  for (const [field, tally] of seen) {
    if (nonScalar.has(field) || !passFailByDefault(field, tally)) continue;
    derived[field] = {
      description: `Share of examples with a pass in ${field} (not declared in the file: derived from its pass/fail values).`,
      example_field: field,
      direction: 'higher_is_better',
    };
  }
  return derived;
}

function buildRun(
  file: string,
  format: 'jsonl' | 'csv',
  meta: SidecarRun,
  examples: ImportedExample[],
  warnings: string[],
): ImportedRun {
  const stem = path.basename(file).replace(/\.(jsonl|csv)$/i, '');
  const settings = emptySettings();
  for (const key of ['model', 'dataset', 'sae', 'intervention', 'generation', 'config'] as const) {
    settings[key] = (meta[key] as JsonObject | undefined) ?? null;
  }
  const experiment = meta.experiment;
  return {
    // The path is the only identity a plain data file has; moving the file makes a new run.
    runId: meta.run_id ?? sha256Text(locationOf(file)).slice(0, 32),
    format,
    formatVersion: null,
    project: meta.project ?? path.basename(path.dirname(path.resolve(file))),
    experiment: experiment
      ? {
          id: experiment.id,
          name: experiment.name ?? experiment.question ?? experiment.id,
          question: experiment.question ?? null,
          claim: experiment.claim ?? null,
          deviations: experiment.deviations ?? [],
          reproduces: (experiment.reproduces ?? null) as Reproduces | null,
        }
      : null,
    condition: {
      name: meta.condition ?? stem,
      role: meta.role ?? null,
      series: meta.series ?? null,
      level: meta.level ?? null,
      expect: meta.expect ?? {},
      compareTo: meta.compare_to ?? [],
      identityHash: null,
    },
    settings,
    codeCommit: null,
    startedAt: null,
    finishedAt: null,
    state: 'completed',
    seed: seedOf(settings.generation, settings.config),
    metrics: (meta.metrics ?? {}) as JsonObject,
    metricDefinitions: meta.metric_definitions
      ? (meta.metric_definitions as Record<string, MetricDefinition>)
      : derivedMetrics(examples),
    provenance: {},
    warnings,
    examples,
  };
}

/** Example ids must be unique per run: matching across runs is by id only. */
function uniqueIds() {
  const seen = new Map<string, number>();
  return (id: string, line: number): void => {
    const first = seen.get(id);
    if (first !== undefined) {
      const [a, b] = [first, line].map((n) => n.toLocaleString('en-US'));
      throw new ImportProblem(`duplicate example id "${id}" (lines ${a} and ${b})`);
    }
    seen.set(id, line);
  };
}

/** Structured inputs (chat messages) are kept as their JSON text. */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// ------------------------------------------------------------------------------ JSON Lines

export function looksLikeGenericJsonl(firstLine: string): boolean {
  try {
    const value: unknown = JSON.parse(firstLine);
    return isRecord(value) && 'id' in value && ('input' in value || 'output' in value);
  } catch {
    // A first line longer than the sniffed prefix is cut off; judge it by its keys.
    return (
      /^\s*\{/.test(firstLine) &&
      /"id"\s*:/.test(firstLine) &&
      /"(input|output)"\s*:/.test(firstLine)
    );
  }
}

export async function importGenericJsonl(file: string, ctx: ImportContext): Promise<ImportedRun> {
  const meta = await readSidecar(file);
  const examples: ImportedExample[] = [];
  const check = uniqueIds();
  const { warnings } = await readJsonLines(
    file,
    (value, lineNo) => {
      const at = `line ${lineNo.toLocaleString('en-US')}`;
      if (!isRecord(value))
        throw new ImportProblem(`${at}: expected a JSON object, found ${describeType(value)}`);
      const { id, input, output, ...fields } = value;
      if (!(typeof id === 'string' && id !== '') && !Number.isSafeInteger(id)) {
        throw new ImportProblem(
          `${at}: "id" should be a non-empty string or an integer, but it is ${describeType(id)}`,
        );
      }
      const exampleId = String(id);
      check(exampleId, lineNo);
      // Stops reading at the limit, so a huge file never sits in memory whole.
      if (examples.length >= MAX_EXAMPLES_PER_RUN) throw tooManyExamples(null);
      examples.push({
        id: exampleId,
        input: textOf(input),
        output: textOf(output),
        fields: fields as JsonObject,
        target: null,
        error: null,
      });
    },
    { signal: ctx.signal, onBytes: ctx.onBytes },
  );
  return buildRun(file, 'jsonl', meta, examples, warnings);
}

// ------------------------------------------------------------------------------------- CSV

const CSV_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Cells become JSON scalars: the types a spreadsheet user means, never guessed further. */
export function csvValue(cell: string): JsonValue {
  if (cell === '') return null;
  if (/^true$/i.test(cell)) return true;
  if (/^false$/i.test(cell)) return false;
  if (CSV_NUMBER.test(cell)) {
    const number = Number(cell);
    // Integers past 2^53 (long ids) would silently change; they stay text.
    if (Number.isFinite(number) && (/[.eE]/.test(cell) || Number.isSafeInteger(number)))
      return number;
  }
  return cell;
}

function headerNames(cells: string[]): string[] {
  return cells.map((name) => name.trim().toLowerCase());
}

export function looksLikeGenericCsv(headerLine: string): boolean {
  let names: string[];
  try {
    names = headerNames(parseCsv(headerLine)[0]?.cells ?? []);
  } catch {
    return false;
  }
  return names.includes('id') && (names.includes('input') || names.includes('output'));
}

export async function importGenericCsv(file: string, ctx: ImportContext): Promise<ImportedRun> {
  const meta = await readSidecar(file);
  const rows = csvFileRows(file, { signal: ctx.signal, onBytes: ctx.onBytes });
  const header = (await rows.next()).value;
  if (!header) throw new ImportProblem('the file has no header row');
  const columns = csvColumns(header.cells);
  const check = uniqueIds();
  const examples: ImportedExample[] = [];
  for await (const row of rows) {
    if (examples.length === MAX_EXAMPLES_PER_RUN) throw tooManyExamples(examples.length + 1);
    examples.push(csvExample(row, columns, check));
  }
  return buildRun(file, 'csv', meta, examples, columns.warnings);
}

interface CsvColumns {
  names: string[];
  id: number;
  input: number;
  output: number;
  warnings: string[];
}

function csvColumns(cells: string[]): CsvColumns {
  const names = cells.map((name) => name.trim());
  const lower = headerNames(cells);
  const warnings: string[] = [];
  const seenNames = new Set<string>();
  names.forEach((name, column) => {
    if (name === '') warnings.push(`column ${column + 1} has no header name and was ignored`);
    else if (seenNames.has(name))
      throw new ImportProblem(`the header names the column "${name}" twice`);
    seenNames.add(name);
  });
  const id = lower.indexOf('id');
  if (id === -1) throw new ImportProblem('the header has no "id" column');
  return { names, id, input: lower.indexOf('input'), output: lower.indexOf('output'), warnings };
}

function csvExample(
  { cells, line }: CsvRow,
  { names, id: idColumn, input, output }: CsvColumns,
  check: (id: string, line: number) => void,
): ImportedExample {
  const at = `line ${line.toLocaleString('en-US')}`;
  if (cells.length !== names.length) {
    throw new ImportProblem(
      `${at} has ${cells.length} cells but the header has ${names.length} columns`,
    );
  }
  const id = cells[idColumn]!;
  if (id.trim() === '') throw new ImportProblem(`${at}: the id cell is empty`);
  check(id, line);
  const fields: JsonObject = Object.fromEntries(
    names.flatMap((name, column) =>
      name === '' || column === idColumn || column === input || column === output
        ? []
        : [[name, csvValue(cells[column]!)]],
    ),
  );
  return {
    id,
    input: input === -1 ? '' : cells[input]!,
    output: output === -1 ? '' : cells[output]!,
    fields,
    target: null,
    error: null,
  };
}
