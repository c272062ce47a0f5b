import fs from 'node:fs';
import type { Db } from '../db/open';
import { sha256Files } from '../ingest/hash';
import { listRuns } from '../library';
import { storedExamplesById } from '../texts/stored';

/**
 * The run record sent to POST /api/v1/runs. A MechLens run is sent exactly as its file holds it
 * (docs/sync.md, "Protocol"), as long as the file still has the bytes that were indexed; any other
 * run, or a file changed since indexing, is sent in the MechLens shape rebuilt from the index, so
 * the body always matches the source sha256 recorded with it.
 */

interface RunDbRow {
  rowid: number;
  id: string;
  experiment_id: string;
  condition_name: string;
  role: string | null;
  series: string | null;
  level: number | null;
  expect: string;
  compare_to: string;
  settings: string;
  format: string;
  format_version: string | null;
  path: string | null;
  started_at: string | null;
  finished_at: string | null;
  state: string;
  code_commit: string | null;
  metrics: string;
  metric_definitions: string;
  provenance: string;
  source_sha256: string | null;
  project: string;
  question: string | null;
  claim: string | null;
  deviations: string;
  reproduces: string | null;
  declared: number;
}

/** Current runs: not superseded by a rerun and still on disk. */
/** Current runs, of the chosen experiments only when `experimentIds` is given. */
export function currentRunIds(db: Db, experimentIds?: readonly string[]): string[] {
  const chosen = experimentIds ? new Set(experimentIds) : null;
  return listRuns(db)
    .filter((r) => !r.superseded && !r.missing && (!chosen || chosen.has(r.experiment_id)))
    .map((r) => r.run_id);
}

/** The file's own bytes, when they are still the ones indexed and hold one JSON object. */
async function recordOnDisk(row: RunDbRow): Promise<string | null> {
  if (row.format !== 'mechlens' || !row.path || !row.path.endsWith('.json')) return null;
  try {
    if ((await sha256Files([row.path])) !== row.source_sha256) return null;
    const text = await fs.promises.readFile(row.path, 'utf8');
    const record = JSON.parse(text) as unknown;
    return record && typeof record === 'object' && !Array.isArray(record) ? text : null;
  } catch {
    return null;
  }
}

function recordFromIndex(db: Db, row: RunDbRow): Record<string, unknown> {
  const settings = JSON.parse(row.settings) as Record<string, unknown>;
  const examples = storedExamplesById(db, row.rowid).map((e) => ({
    id: e.id,
    input: e.input,
    output: e.output,
    fields: e.fields,
    ...(e.target !== null ? { target: e.target } : {}),
    ...(e.error !== null ? { error: e.error } : {}),
  }));
  return {
    id: row.id,
    project: row.project,
    name: row.condition_name,
    question: row.question,
    ...settings,
    experiment: row.declared
      ? {
          id: row.experiment_id,
          role: row.role,
          declaration: {
            question: row.question,
            claim: row.claim,
            deviations: JSON.parse(row.deviations) as unknown,
            reproduces: row.reproduces ? (JSON.parse(row.reproduces) as unknown) : null,
          },
        }
      : undefined,
    condition: {
      expect: JSON.parse(row.expect) as unknown,
      compare_to: JSON.parse(row.compare_to) as unknown,
      series: row.series,
      level: row.level,
    },
    metric_definitions: JSON.parse(row.metric_definitions) as unknown,
    code_commit: row.code_commit,
    examples,
    metrics: JSON.parse(row.metrics) as unknown,
    started_at: row.started_at,
    finished_at: row.finished_at,
    state: row.state,
    provenance: JSON.parse(row.provenance) as unknown,
    source: { format: row.format, format_version: row.format_version },
  };
}

export async function runRecord(
  db: Db,
  runId: string,
): Promise<{ sha256: string | null; body: string } | null> {
  const row = db
    .prepare(
      `SELECT r.*, e.project_id AS project, e.question, e.claim, e.deviations, e.reproduces, e.declared
       FROM runs r JOIN experiments e ON e.id = r.experiment_id WHERE r.id = ?`,
    )
    .get(runId) as RunDbRow | undefined;
  if (!row) return null;
  return {
    sha256: row.source_sha256,
    body: (await recordOnDisk(row)) ?? JSON.stringify(recordFromIndex(db, row)),
  };
}
