import { buildExperimentReport } from '../../../shared/compare';
import { guessedReferenceLimitation } from '../../../shared/compare/limitations';
import type {
  CompareExample,
  CompareExperiment,
  CompareRun,
  Report,
} from '../../../shared/compare/types';
import type { JsonObject, MetricDefinition, Role, RunSettings } from '../../../shared/model';
import type { ComparePlan } from '../compare/plan';
import { planFromExport, planPairFromExport, readExperiment } from './plan';
import type { ParquetSource } from './source';
import { sqlString } from './sql';

export interface EngineOptions {
  reference?: string;
  resamples?: number;
}

/** One run the comparison reads: a condition's representative, or a reference replicate. */
interface Slot {
  runId: string;
  condition: string;
  role: Role | null;
  series?: { name: string | null; level: number | null };
}

interface RunRecord {
  run_id: string;
  series: string | null;
  level: number | null;
  code_commit: string | null;
  expect: string;
  compare_to: string[];
  settings: string;
  metrics: string;
  metric_definitions: string;
}

/** A report, and the runs it was computed from by condition (their texts as hashes). */
export interface ParquetComparison {
  report: Report;
  runs: Map<string, CompareRun>;
}

/**
 * An experiment's report from a Parquet export: DuckDB reads the files, selects the runs the
 * plan names and orders their examples by id; the statistics are the shared comparison
 * (buildExperimentReport), given the same runs, reference, replicates and series as the
 * built-in engine (compare/compute.ts) gives it, so both print the same report.
 */
export async function compareFromParquet(
  source: ParquetSource,
  experimentId: string,
  options: EngineOptions = {},
): Promise<ParquetComparison> {
  const { experiment, record } = await readExperiment(source, experimentId);
  return compareByPlan(source, await planFromExport(source, record, options), experiment);
}

/** Two runs of the export, whatever their experiments, as the built-in engine pairs them. */
export async function comparePairFromParquet(
  source: ParquetSource,
  baselineId: string,
  candidateId: string,
  options: EngineOptions = {},
): Promise<ParquetComparison> {
  const plan = await planPairFromExport(source, baselineId, candidateId, options);
  return compareByPlan(source, plan, plan.experiment!);
}

async function compareByPlan(
  source: ParquetSource,
  plan: ComparePlan,
  experiment: CompareExperiment,
): Promise<ParquetComparison> {
  const slots: Slot[] = [
    ...plan.conditions.map((c) => ({
      runId: c.runId,
      condition: c.name,
      role: c.role,
      series: c.series,
    })),
    ...plan.referenceReplicates.map((runId) => ({
      runId,
      condition: plan.reference,
      role: 'reference' as const,
    })),
  ];
  const runs = await readRuns(source, slots);
  await readExamples(source, slots, runs);
  const representatives = runs.slice(0, plan.conditions.length);
  return {
    report: reportOf(plan, experiment, runs),
    runs: new Map(representatives.map((r) => [r.conditionName, r])),
  };
}

async function readRuns(source: ParquetSource, slots: Slot[]): Promise<CompareRun[]> {
  const ids = slots.map((s) => sqlString(s.runId)).join(', ');
  const reader = await source.connection.runAndReadAll(
    `SELECT run_id, series, level, code_commit, expect, compare_to, settings, metrics,
            metric_definitions
     FROM runs WHERE run_id IN (${ids})`,
  );
  const records = new Map(
    (reader.getRowObjectsJS() as unknown as RunRecord[]).map((r) => [r.run_id, r]),
  );
  return slots.map((slot) => {
    const r = records.get(slot.runId);
    if (!r) throw new Error(`Run ${slot.runId} is not in the export.`);
    return {
      runId: r.run_id,
      conditionName: slot.condition,
      role: slot.role,
      series: slot.series ? slot.series.name : r.series,
      level: slot.series ? slot.series.level : r.level,
      expect: JSON.parse(r.expect) as CompareRun['expect'],
      compareTo: r.compare_to,
      settings: JSON.parse(r.settings) as RunSettings,
      codeCommit: r.code_commit,
      metrics: JSON.parse(r.metrics) as JsonObject,
      metricDefinitions: JSON.parse(r.metric_definitions) as Record<string, MetricDefinition>,
      examples: [],
    };
  });
}

/**
 * Every chosen run's examples in one query: the examples joined with the chosen runs, ordered
 * by example id, so the rows of one id (one per run that has it) come together. Each id string
 * is then made once and shared by its runs' examples, and each run's list arrives sorted, which
 * the shared pairing merges in one pass. Rows stream in DuckDB's chunks (2,048 rows). The
 * comparison needs only whether texts are equal, so it reads their hashes, never the texts.
 */
async function readExamples(
  source: ParquetSource,
  slots: Slot[],
  runs: CompareRun[],
): Promise<void> {
  const ids = slots.map((s) => sqlString(s.runId)).join(', ');
  const chosen = slots.map((s, slot) => `(${slot}, ${sqlString(s.runId)})`).join(', ');
  const result = await source.connection.stream(
    `WITH chosen(slot, run_id) AS (VALUES ${chosen})
     SELECT c.slot, e.example_id, e.input_hash, e.output_hash, e.error, e.fields
     FROM examples e JOIN chosen c ON c.run_id = e.run_id
     WHERE e.run_id IN (${ids})
     ORDER BY e.example_id, c.slot`,
  );
  let previous: string | null = null;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const [slotsOf, idsOf, inputs, outputs, errors, fields] = chunk.getColumns() as [
      number[],
      string[],
      string[],
      string[],
      (string | null)[],
      string[],
    ];
    for (let k = 0; k < chunk.rowCount; k++) {
      const id: string = idsOf[k] === previous ? previous : idsOf[k]!;
      previous = id;
      const example: CompareExample = {
        id,
        input: inputs[k]!,
        output: outputs[k]!,
        error: errors[k]!,
        fields: JSON.parse(fields[k]!) as JsonObject,
      };
      runs[slotsOf[k]!]!.examples.push(example);
    }
  }
}

/** As compare/compute.ts builds its report from the loaded runs. */
function reportOf(
  plan: ComparePlan,
  experiment: Parameters<typeof buildExperimentReport>[0],
  runs: CompareRun[],
): Report {
  const representatives = runs.slice(0, plan.conditions.length);
  const replicates = runs.slice(plan.conditions.length);
  const reference = representatives.find((r) => r.conditionName === plan.reference);
  const report = buildExperimentReport(experiment, representatives, {
    reference: plan.reference,
    resamples: plan.resamples,
    replicates:
      reference && replicates.length > 0
        ? { [plan.reference]: [reference, ...replicates] }
        : undefined,
  });
  report.experiment.reference_basis = plan.referenceBasis;
  const guessed = guessedReferenceLimitation(plan.referenceBasis, plan.reference);
  for (const comparison of report.comparisons) {
    if (guessed && comparison.reference.condition === plan.reference)
      comparison.limitations.push(guessed);
  }
  return report;
}
