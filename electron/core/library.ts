import type { RequestOutput } from '../../shared/contract';
import { compareStrings } from '../../shared/compare/canonical';
import { conditionNames } from './conditions/auto-names';
import type { Db } from './db/open';

type RunRow = RequestOutput<'runs:list'>[number];

interface RawRun {
  id: string;
  format: string;
  project: string;
  experiment_id: string;
  declared: number;
  imported_condition: string;
  override_condition: string | null;
  condition: string;
  /** The condition the files give, before any hand-made move. */
  base_condition: string;
  role: string | null;
  series: string | null;
  level: number | null;
  example_count: number;
  state: string;
  missing: number;
  path: string | null;
  started_at: string | null;
  finished_at: string | null;
  sort_time: string | null;
  warnings: string;
  settings: string;
  code_commit: string | null;
  task_id: string | null;
  superseded: boolean;
}

/** Every run with its imported condition, the hand-made overrides and what naming needs. */
const runsQuery = `
  SELECT r.id, r.format, e.project_id AS project, r.experiment_id, e.declared,
    r.condition_name AS imported_condition, o.condition_name AS override_condition,
    COALESCE(o.role, r.role) AS role, r.series, r.level, r.example_count, r.state, r.missing,
    r.path, r.started_at, r.finished_at, r.sort_time, r.warnings, r.settings, r.code_commit,
    json_extract(r.provenance, '$.task_id') AS task_id
  FROM runs r
  JOIN experiments e ON e.id = r.experiment_id
  LEFT JOIN run_overrides o ON o.run_id = r.id`;

/**
 * Effective conditions: a hand-made condition wins, else the name the settings give
 * (conditions/auto-names.ts), computed per experiment since it depends on the other runs.
 */
function withConditions(rows: RawRun[]): RawRun[] {
  for (const list of byExperiment(rows).values()) {
    const names = conditionNames(
      list.map((r) => ({
        id: r.id,
        format: r.format,
        condition: r.imported_condition,
        settings: r.settings,
        codeCommit: r.code_commit,
        sortTime: r.sort_time,
      })),
    );
    for (const row of list) {
      row.base_condition = names.get(row.id)!;
      row.condition = row.override_condition ?? row.base_condition;
    }
  }
  return rows;
}

/**
 * A run is superseded only where its format says a later file is a rerun of the same run:
 * MechLens records of one condition name (the latest wins), and Inspect logs of one task_id
 * (eval-retry keeps it). Every other pair of runs is two conditions or two replicates. The name
 * is the one the files give: runs a user grouped together by hand are replicates, not reruns.
 */
function rerunKey(row: RawRun): string | null {
  if (row.format === 'mechlens') return `${row.experiment_id}\u0000${row.base_condition}`;
  if (row.format === 'inspect' && row.task_id)
    return `${row.experiment_id}\u0000${row.base_condition}\u0000${row.task_id}`;
  return null;
}

function withSuperseded(rows: RawRun[]): RawRun[] {
  const latest = new Map<string, RawRun>();
  const newer = (a: RawRun, b: RawRun): boolean =>
    a.missing !== b.missing
      ? a.missing < b.missing
      : (a.sort_time ?? '') !== (b.sort_time ?? '')
        ? (a.sort_time ?? '') > (b.sort_time ?? '')
        : a.id > b.id;
  for (const row of rows) {
    const key = rerunKey(row);
    if (key === null) continue;
    const best = latest.get(key);
    if (!best || newer(row, best)) latest.set(key, row);
  }
  for (const row of rows) {
    const key = rerunKey(row);
    row.superseded = key !== null && latest.get(key) !== row;
  }
  return rows;
}

function byExperiment(rows: RawRun[]): Map<string, RawRun[]> {
  const groups = new Map<string, RawRun[]>();
  for (const row of rows) {
    const list = groups.get(row.experiment_id) ?? [];
    list.push(row);
    groups.set(row.experiment_id, list);
  }
  return groups;
}

/**
 * The reference of plain runs: starts with baseline, else control, else contains either
 * (docs/comparison.md, "The reference").
 */
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
  for (const list of byExperiment(rows).values()) {
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
  const sql = `${runsQuery} ${experimentId ? 'WHERE r.experiment_id = ?' : ''}`;
  const raw = (
    experimentId ? db.prepare(sql).all(experimentId) : db.prepare(sql).all()
  ) as RawRun[];
  const rows = withDefaultRoles(withSuperseded(withConditions(raw))).sort(
    (a, b) =>
      compareStrings(a.project, b.project) ||
      compareStrings(a.experiment_id, b.experiment_id) ||
      compareStrings(a.condition, b.condition) ||
      compareStrings(a.finished_at ?? '', b.finished_at ?? '') ||
      compareStrings(a.id, b.id),
  );
  return rows.map((r) => ({
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
    superseded: r.superseded,
    missing: r.missing === 1,
    path: r.path,
    started_at: r.started_at,
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
