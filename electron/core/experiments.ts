import type { ReferenceBasis, RequestOutput } from '../../shared/contract';
import type { Db } from './db/open';
import { NotFoundError } from './errors';
import { listRuns, pickDefaultReference } from './library';

type RunRow = RequestOutput<'runs:list'>[number];
type ConditionRow = RequestOutput<'conditions:list'>[number];

/** An `experiments` row as read, with its JSON columns still text. */
export interface ExperimentRow {
  id: string;
  project: string;
  name: string;
  question: string | null;
  claim: string | null;
  deviations: string;
  reproduces: string | null;
  declared: number;
  last_run_at?: string | null;
}

interface ConditionOverride {
  condition_name: string;
  role: string | null;
  representative_run_id: string | null;
  series: string | null;
  level: number | null;
}

function overrides(db: Db, experimentId: string): Map<string, ConditionOverride> {
  const rows = db
    .prepare(
      `SELECT condition_name, role, representative_run_id, series, level FROM condition_overrides WHERE experiment_id = ?`,
    )
    .all(experimentId) as ConditionOverride[];
  return new Map(rows.map((r) => [r.condition_name, r]));
}

export interface ReferencePick {
  name: string;
  basis: ReferenceBasis;
}

/**
 * The conditions of an experiment with their effective role, their runs, and the run that
 * stands for each in a pairwise comparison: the hand-picked one, else the latest current run.
 */
export function conditionsOf(
  db: Db,
  experimentId: string,
): { conditions: ConditionRow[]; reference: ReferencePick | null } {
  const runs = listRuns(db, experimentId);
  const byCondition = new Map<string, RunRow[]>();
  for (const run of runs) {
    const list = byCondition.get(run.condition) ?? [];
    list.push(run);
    byCondition.set(run.condition, list);
  }
  const chosen = overrides(db, experimentId);
  const details = new Map(
    (
      db
        .prepare(
          `SELECT id, expect, compare_to, settings FROM runs WHERE experiment_id = ? ORDER BY sort_time DESC, id DESC`,
        )
        .all(experimentId) as { id: string; expect: string; compare_to: string; settings: string }[]
    ).map((r) => [r.id, r]),
  );

  const rows: ConditionRow[] = [...byCondition.entries()].map(([name, list]) => {
    const current = list.filter((r) => !r.superseded && !r.missing);
    const latest = [...(current.length ? current : list)].sort((a, b) =>
      (b.finished_at ?? '').localeCompare(a.finished_at ?? ''),
    )[0]!;
    const picked = chosen.get(name)?.representative_run_id;
    const representative = list.find((r) => r.run_id === picked) ?? latest;
    const detail = details.get(representative.run_id);
    const roles = new Set(list.map((r) => r.role).filter((r): r is string => Boolean(r)));
    const role =
      chosen.get(name)?.role ??
      (roles.size === 1 ? [...roles][0]! : roles.has('reference') ? 'reference' : 'unknown');
    const declaredSeries = chosen.get(name)?.series;
    return {
      name,
      role: role as ConditionRow['role'],
      series: declaredSeries ?? representative.series,
      level: declaredSeries ? (chosen.get(name)?.level ?? null) : representative.level,
      expect: detail ? (JSON.parse(detail.expect) as ConditionRow['expect']) : {},
      compareTo: detail ? (JSON.parse(detail.compare_to) as string[]) : [],
      settings: detail ? (JSON.parse(detail.settings) as ConditionRow['settings']) : {},
      representativeRunId: representative.run_id,
      runs: list,
    };
  });

  const reference = pickReference(rows, chosen);
  for (const row of rows) {
    if (row.name === reference?.name) row.role = 'reference';
    else if (row.role === 'reference') row.role = 'unknown';
  }
  const order = { reference: 0, intervention: 1, control: 2, unknown: 3 } as const;
  const sorted = rows.sort(
    (a, b) =>
      order[a.role] - order[b.role] ||
      (a.series ?? '').localeCompare(b.series ?? '') ||
      (a.level ?? 0) - (b.level ?? 0) ||
      a.name.localeCompare(b.name),
  );
  return { conditions: sorted, reference };
}

export function listConditions(db: Db, experimentId: string): ConditionRow[] {
  return conditionsOf(db, experimentId).conditions;
}

function examplesOf(row: ConditionRow): number {
  return row.runs.find((r) => r.run_id === row.representativeRunId)?.examples ?? 0;
}

/**
 * Exactly one condition is the reference: the one picked by hand, else the declared one. Where
 * nothing declares it, Pairwise guesses, and says so: a condition whose name starts with (or
 * contains) baseline or control, else the earliest run. A condition with no examples is not
 * guessed while another has some.
 */
function pickReference(
  rows: ConditionRow[],
  chosen: Map<string, ConditionOverride>,
): ReferencePick | null {
  const handPicked = rows.find((r) => chosen.get(r.name)?.role === 'reference');
  if (handPicked) return { name: handPicked.name, basis: 'chosen' };
  const declared = rows.find((r) => r.role === 'reference');
  if (declared) return { name: declared.name, basis: 'declared' };
  const withExamples = rows.filter((r) => examplesOf(r) > 0);
  const candidates = withExamples.length > 0 ? withExamples : rows;
  const byName = pickDefaultReference(candidates.map((r) => r.name));
  if (byName) return { name: byName, basis: 'name' };
  const earliest = earliestCondition(candidates);
  return earliest ? { name: earliest, basis: 'earliest' } : null;
}

/**
 * With no declaration and no telling name, the condition whose run started first stands in as
 * the reference (a baseline is usually run before what is compared with it); the user can pick
 * another in the Conditions view or with --reference.
 */
function earliestCondition(rows: ConditionRow[]): string | null {
  const dated = rows.map((row) => {
    const run = row.runs.find((r) => r.run_id === row.representativeRunId);
    // A run with no recorded time sorts last: it cannot claim to be first.
    return { name: row.name, at: run?.started_at ?? run?.finished_at ?? '\uffff' };
  });
  dated.sort((a, b) => a.at.localeCompare(b.at) || a.name.localeCompare(b.name));
  return dated[0]?.name ?? null;
}

export function listExperiments(db: Db): RequestOutput<'experiments:list'> {
  const rows = db
    .prepare(
      `SELECT e.id, e.project_id AS project, e.name, e.question, e.claim, e.deviations, e.reproduces, e.declared,
              (SELECT MAX(r.sort_time) FROM runs r WHERE r.experiment_id = e.id) AS last_run_at
       FROM experiments e WHERE EXISTS (SELECT 1 FROM runs r WHERE r.experiment_id = e.id) ORDER BY e.project_id, e.name`,
    )
    .all() as ExperimentRow[];
  return rows.map((e) => {
    const { conditions, reference } = conditionsOf(db, e.id);
    return {
      id: e.id,
      project: e.project,
      name: e.name,
      question: e.question,
      claim: e.claim,
      declared: e.declared === 1,
      reference: reference?.name ?? null,
      referenceBasis: reference?.basis ?? null,
      conditions: conditions.length,
      runs: conditions.reduce((n, c) => n + c.runs.length, 0),
      examples: conditions.reduce(
        (n, c) => n + (c.runs.find((r) => r.run_id === c.representativeRunId)?.examples ?? 0),
        0,
      ),
      formats: [...new Set(conditions.flatMap((c) => c.runs.map((r) => r.format)))].sort(),
      lastRunAt: e.last_run_at ?? null,
    };
  });
}

const now = () => new Date().toISOString();

export function setConditionRole(
  db: Db,
  experimentId: string,
  condition: string,
  role: string,
): void {
  db.transaction(() => {
    if (role === 'reference') {
      db.prepare(
        `UPDATE condition_overrides SET role = 'unknown', updated_at = ? WHERE experiment_id = ? AND role = 'reference'`,
      ).run(now(), experimentId);
    }
    db.prepare(
      `INSERT INTO condition_overrides (experiment_id, condition_name, role, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(experiment_id, condition_name) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at`,
    ).run(experimentId, condition, role, now());
  })();
}

export function setRepresentative(
  db: Db,
  experimentId: string,
  condition: string,
  runId: string,
): void {
  db.prepare(
    `INSERT INTO condition_overrides (experiment_id, condition_name, representative_run_id, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(experiment_id, condition_name) DO UPDATE SET representative_run_id = excluded.representative_run_id,
       updated_at = excluded.updated_at`,
  ).run(experimentId, condition, runId, now());
}

/** Moves one run to another condition (or role) by hand; kept across re-indexes by run id. */
export function setRunOverride(
  db: Db,
  runId: string,
  change: { role?: string | null; condition?: string | null },
): void {
  const exists = db.prepare(`SELECT 1 FROM runs WHERE id = ?`).get(runId);
  if (!exists) throw new NotFoundError(`There is no run "${runId}".`);
  db.prepare(
    `INSERT INTO run_overrides (run_id, role, condition_name, updated_at) VALUES (@run_id, @role, @condition, @at)
     ON CONFLICT(run_id) DO UPDATE SET
       role = CASE WHEN @has_role THEN excluded.role ELSE role END,
       condition_name = CASE WHEN @has_condition THEN excluded.condition_name ELSE condition_name END,
       updated_at = excluded.updated_at`,
  ).run({
    run_id: runId,
    role: change.role ?? null,
    condition: change.condition ?? null,
    at: now(),
    has_role: change.role !== undefined ? 1 : 0,
    has_condition: change.condition !== undefined ? 1 : 0,
  });
}

/**
 * Declares (or, with a null series, forgets) the series a condition belongs to and its level,
 * kept by condition name like a role.
 */
export function setConditionSeries(
  db: Db,
  experimentId: string,
  condition: string,
  series: string | null,
  level: number | null,
): void {
  db.prepare(
    `INSERT INTO condition_overrides (experiment_id, condition_name, series, level, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(experiment_id, condition_name) DO UPDATE SET series = excluded.series, level = excluded.level,
       updated_at = excluded.updated_at`,
  ).run(experimentId, condition, series, series === null ? null : level, now());
}
