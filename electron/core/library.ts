import type { RequestOutput } from '../../shared/contract';
import type { Db } from './db/open';

type RunRow = RequestOutput<'runs:list'>[number];

interface RawRun {
  id: string;
  format: string;
  project: string;
  experiment_id: string;
  declared: number;
  condition: string;
  role: string | null;
  series: string | null;
  level: number | null;
  example_count: number;
  state: string;
  superseded: number;
  missing: number;
  path: string | null;
  finished_at: string | null;
  warnings: string;
}

/**
 * Every run with its effective condition and role (hand-made overrides win) and whether a
 * later run of the same condition supersedes it. REPS replicates are never superseded: several
 * runs of one condition hash are repeats, not reruns (COMPARISON.md §1).
 */
const runsQuery = `
  WITH effective AS (
    SELECT r.*, e.project_id AS project, e.declared AS declared,
      COALESCE(o.condition_name, r.condition_name) AS condition,
      COALESCE(o.role, r.role) AS eff_role
    FROM runs r
    JOIN experiments e ON e.id = r.experiment_id
    LEFT JOIN run_overrides o ON o.run_id = r.id
  )
  SELECT id, format, project, experiment_id, declared, condition, eff_role AS role, series, level,
    example_count, state, missing, path, finished_at, warnings,
    CASE WHEN format <> 'reps' AND ROW_NUMBER() OVER (
      PARTITION BY experiment_id, condition ORDER BY missing ASC, sort_time DESC, id DESC) > 1
    THEN 1 ELSE 0 END AS superseded
  FROM effective`;

/** COMPARISON.md §1 for plain runs: starts with baseline, else control, else contains either. */
export function pickDefaultReference(conditions: string[]): string | null {
  const lower = conditions.map((c) => [c, c.toLowerCase()] as const);
  const tests: ((name: string) => boolean)[] = [
    (n) => n.startsWith('baseline'),
    (n) => n.startsWith('control'),
    (n) => n.includes('baseline') || n.includes('control'),
  ];
  for (const test of tests) {
    const hit = lower
      .filter(([, l]) => test(l))
      .map(([c]) => c)
      .sort()[0];
    if (hit) return hit;
  }
  return null;
}

function withDefaultRoles(rows: RawRun[]): RawRun[] {
  const byExperiment = new Map<string, RawRun[]>();
  for (const row of rows) {
    const list = byExperiment.get(row.experiment_id) ?? [];
    list.push(row);
    byExperiment.set(row.experiment_id, list);
  }
  for (const list of byExperiment.values()) {
    if (list.some((r) => r.role === 'reference')) continue;
    const reference = pickDefaultReference([...new Set(list.map((r) => r.condition))]);
    for (const row of list) {
      if (row.role) continue;
      row.role = row.condition === reference ? 'reference' : 'unknown';
    }
  }
  return rows;
}

export function listRuns(db: Db, experimentId?: string): RunRow[] {
  const sql = `SELECT * FROM (${runsQuery}) ${experimentId ? 'WHERE experiment_id = ?' : ''}
    ORDER BY project, experiment_id, condition, finished_at, id`;
  const raw = (
    experimentId ? db.prepare(sql).all(experimentId) : db.prepare(sql).all()
  ) as RawRun[];
  return withDefaultRoles(raw).map((r) => ({
    run_id: r.id,
    format: r.format,
    project: r.project,
    experiment_id: r.experiment_id,
    condition: r.condition,
    role: r.role,
    series: r.series,
    level: r.level,
    examples: r.example_count,
    state: r.missing ? 'missing' : r.state,
    superseded: r.superseded === 1,
    missing: r.missing === 1,
    path: r.path,
    finished_at: r.finished_at,
    warnings: JSON.parse(r.warnings) as string[],
  }));
}

export function librarySummary(db: Db): RequestOutput<'library:summary'> {
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    projects: count(`SELECT COUNT(*) AS n FROM projects`),
    experiments: count(`SELECT COUNT(*) AS n FROM experiments`),
    runs: count(`SELECT COUNT(*) AS n FROM runs`),
    examples: count(`SELECT COALESCE(SUM(example_count), 0) AS n FROM runs`),
    sources: count(`SELECT COUNT(*) AS n FROM sources WHERE status <> 'skipped'`),
    problems: count(`SELECT COUNT(*) AS n FROM sources WHERE status = 'failed'`),
    folders: (
      db.prepare(`SELECT path, watched FROM folders ORDER BY path`).all() as {
        path: string;
        watched: number;
      }[]
    ).map((f) => ({ path: f.path, watched: f.watched === 1 })),
  };
}

export function listProblems(db: Db): RequestOutput<'library:problems'> {
  return db
    .prepare(
      `SELECT path, error AS message, importer, indexed_at AS at FROM sources WHERE status = 'failed' ORDER BY path`,
    )
    .all() as RequestOutput<'library:problems'>;
}
