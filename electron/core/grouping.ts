import type { RequestOutput } from '../../shared/contract';
import type { JsonObject, JsonValue, Role } from '../../shared/model';
import { flatten } from '../../shared/compare/canonical';
import type { Db } from './db/open';
import { NotFoundError } from './errors';
import { conditionsOf } from './experiments';

type GroupingPlan = RequestOutput<'runs:groupPreview'>;

interface SettingsRow {
  id: string;
  settings: string;
}

function runSettings(db: Db, experimentId: string): SettingsRow[] {
  return db
    .prepare(`SELECT id, settings FROM runs WHERE experiment_id = ? ORDER BY id`)
    .all(experimentId) as SettingsRow[];
}

function leafPaths(settings: string): Map<string, JsonValue> {
  const parsed = JSON.parse(settings) as Record<string, JsonValue>;
  const result = new Map<string, JsonValue>();
  for (const [section, value] of Object.entries(parsed)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [leaf, v] of flatten(value as JsonObject)) result.set(`${section}.${leaf}`, v);
  }
  return result;
}

/** Every settings path any run of the experiment records, for the "group by" picker. */
export function settingsFields(db: Db, experimentId: string): string[] {
  const paths = new Set<string>();
  for (const row of runSettings(db, experimentId))
    for (const key of leafPaths(row.settings).keys()) paths.add(key);
  return [...paths].sort();
}

function label(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'none';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Where "group by <field>" would put each run. A run keeps the role its condition has now (so a
 * hand-set role survives and an intervention never becomes the reference by accident); runs
 * that share a value but not a role stay in separate conditions, so a control is never folded
 * into an intervention. Only the condition holding the reference's representative run stays the
 * reference.
 */
export function previewGrouping(db: Db, experimentId: string, field: string): GroupingPlan {
  const { conditions } = conditionsOf(db, experimentId);
  if (conditions.length === 0)
    throw new NotFoundError(`There is no experiment "${experimentId}" with runs.`);
  const current = new Map<string, { condition: string; role: Role }>();
  for (const c of conditions)
    for (const run of c.runs) current.set(run.run_id, { condition: c.name, role: c.role });
  const referenceRun = conditions.find((c) => c.role === 'reference')?.representativeRunId;

  const byValue = new Map<string, { runId: string; role: Role }[]>();
  for (const row of runSettings(db, experimentId)) {
    const base = `${field}=${label(leafPaths(row.settings).get(field))}`;
    const list = byValue.get(base) ?? [];
    list.push({ runId: row.id, role: current.get(row.id)?.role ?? 'unknown' });
    byValue.set(base, list);
  }

  const moves: GroupingPlan['moves'] = [];
  const targets = new Map<string, { role: Role; runs: string[] }>();
  const notes: string[] = [];
  for (const [base, runs] of byValue) {
    const roles = new Set(runs.map((r) => r.role));
    for (const run of runs) {
      const to = roles.size > 1 ? `${base} (${run.role})` : base;
      const target = targets.get(to) ?? { role: run.role, runs: [] };
      target.runs.push(run.runId);
      targets.set(to, target);
      moves.push({
        runId: run.runId,
        from: current.get(run.runId)?.condition ?? '',
        to,
        role: run.role,
      });
    }
    if (roles.size > 1)
      notes.push(`${base} holds runs of ${[...roles].sort().join(' and ')}: kept apart by role.`);
  }
  for (const [name, target] of targets) {
    if (target.role !== 'reference' || target.runs.includes(referenceRun ?? '')) continue;
    target.role = 'unknown';
    for (const move of moves) if (move.to === name) move.role = 'unknown';
    notes.push(`${name} holds reference runs of another value: it becomes unassigned.`);
  }
  return {
    field,
    moves: moves.sort((a, b) => a.to.localeCompare(b.to) || a.runId.localeCompare(b.runId)),
    conditions: [...targets.entries()]
      .map(([name, t]) => ({ name, role: t.role, runs: t.runs.length }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    changes: moves.filter((m) => m.from !== m.to).length,
    notes,
  };
}

interface RunOverrideRow {
  run_id: string;
  role: string | null;
  condition_name: string | null;
  updated_at: string;
}

interface ConditionOverrideRow {
  experiment_id: string;
  condition_name: string;
  role: string | null;
  representative_run_id: string | null;
  series: string | null;
  level: number | null;
  updated_at: string;
}

const now = () => new Date().toISOString();

/**
 * Applies the preview: each run's condition becomes its planned name (a hand-made override),
 * each new condition keeps its runs' role, and the overrides it replaces are kept so that
 * undoGrouping can put them back (one level, stored, so it survives a reload). Runs indexed
 * later are not grouped: a rescan never re-applies a grouping on its own.
 */
export function groupRunsBy(db: Db, experimentId: string, field: string): number {
  const plan = previewGrouping(db, experimentId, field);
  db.transaction(() => {
    const runIds = plan.moves.map((m) => m.runId);
    const runOverrides = db
      .prepare(
        `SELECT run_id, role, condition_name, updated_at FROM run_overrides
         WHERE run_id IN (SELECT id FROM runs WHERE experiment_id = ?)`,
      )
      .all(experimentId) as RunOverrideRow[];
    const conditionOverrides = db
      .prepare(`SELECT * FROM condition_overrides WHERE experiment_id = ?`)
      .all(experimentId) as ConditionOverrideRow[];
    db.prepare(
      `INSERT OR REPLACE INTO grouping_undo (experiment_id, field, applied_at, run_overrides, condition_overrides)
       VALUES (?, ?, ?, ?, ?)`,
    ).run(
      experimentId,
      field,
      now(),
      JSON.stringify({ runIds, rows: runOverrides }),
      JSON.stringify(conditionOverrides),
    );
    const representatives = new Map(
      conditionOverrides
        .filter((o) => o.representative_run_id)
        .map((o) => [o.representative_run_id!, o]),
    );
    const at = now();
    const setRun = db.prepare(
      `INSERT INTO run_overrides (run_id, condition_name, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(run_id) DO UPDATE SET condition_name = excluded.condition_name, updated_at = excluded.updated_at`,
    );
    for (const move of plan.moves) setRun.run(move.runId, move.to, at);
    db.prepare(
      `UPDATE condition_overrides SET role = NULL, updated_at = ? WHERE experiment_id = ? AND role = 'reference'`,
    ).run(at, experimentId);
    const setCondition = db.prepare(
      `INSERT INTO condition_overrides (experiment_id, condition_name, role, representative_run_id, updated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(experiment_id, condition_name) DO UPDATE SET role = excluded.role,
         representative_run_id = excluded.representative_run_id, updated_at = excluded.updated_at`,
    );
    for (const condition of plan.conditions) {
      const runs = plan.moves.filter((m) => m.to === condition.name).map((m) => m.runId);
      const kept = runs.find((id) => representatives.has(id)) ?? null;
      setCondition.run(experimentId, condition.name, condition.role, kept, at);
    }
  })();
  return plan.conditions.length;
}

export function lastGrouping(db: Db, experimentId: string): RequestOutput<'runs:lastGrouping'> {
  const row = db
    .prepare(`SELECT field, applied_at FROM grouping_undo WHERE experiment_id = ?`)
    .get(experimentId) as { field: string; applied_at: string } | undefined;
  return row ? { field: row.field, appliedAt: row.applied_at } : null;
}

/** Puts back the overrides the last grouping replaced; false when there is nothing to undo. */
export function undoGrouping(db: Db, experimentId: string): boolean {
  return db.transaction(() => {
    const row = db
      .prepare(
        `SELECT run_overrides, condition_overrides FROM grouping_undo WHERE experiment_id = ?`,
      )
      .get(experimentId) as { run_overrides: string; condition_overrides: string } | undefined;
    if (!row) return false;
    const runs = JSON.parse(row.run_overrides) as { runIds: string[]; rows: RunOverrideRow[] };
    const conditions = JSON.parse(row.condition_overrides) as ConditionOverrideRow[];
    const dropRun = db.prepare(`DELETE FROM run_overrides WHERE run_id = ?`);
    for (const id of runs.runIds) dropRun.run(id);
    const putRun = db.prepare(
      `INSERT OR REPLACE INTO run_overrides (run_id, role, condition_name, updated_at)
       VALUES (@run_id, @role, @condition_name, @updated_at)`,
    );
    for (const r of runs.rows) putRun.run(r);
    db.prepare(`DELETE FROM condition_overrides WHERE experiment_id = ?`).run(experimentId);
    const putCondition = db.prepare(
      `INSERT INTO condition_overrides (experiment_id, condition_name, role, representative_run_id, series, level, updated_at)
       VALUES (@experiment_id, @condition_name, @role, @representative_run_id, @series, @level, @updated_at)`,
    );
    for (const c of conditions) putCondition.run(c);
    db.prepare(`DELETE FROM grouping_undo WHERE experiment_id = ?`).run(experimentId);
    return true;
  })();
}
