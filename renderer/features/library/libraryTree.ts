import type { RunRow } from '../../store/library';

/** One experiment's runs as the library lists them: by condition, in the order they came. */
export interface ExperimentGroup {
  id: string;
  project: string;
  conditions: Map<string, RunRow[]>;
  runs: RunRow[];
}

type LibraryTree = Map<string, ExperimentGroup[]>;

/** A card's rows: its head and question, and a row per run. */
const HEAD_ROWS = 3;

export function cardRows(group: ExperimentGroup): number {
  return HEAD_ROWS + group.runs.length;
}

/** How many rows the tree's cards hold. */
export function treeRows(tree: LibraryTree): number {
  let rows = 0;
  for (const groups of tree.values()) for (const group of groups) rows += cardRows(group);
  return rows;
}

/**
 * The projects with their cards, in the tree's order, while their rows fit in `rows` (the first
 * card whatever its size, so the growth never stalls on a card larger than a step).
 */
export function firstCards(tree: LibraryTree, rows: number): [string, ExperimentGroup[]][] {
  const shown: [string, ExperimentGroup[]][] = [];
  let left = rows;
  for (const [project, groups] of tree) {
    const cards: ExperimentGroup[] = [];
    for (const group of groups) {
      if (left <= 0 || (shown.length + cards.length > 0 && cardRows(group) > left)) break;
      cards.push(group);
      left -= cardRows(group);
    }
    if (cards.length > 0) shown.push([project, cards]);
    if (cards.length < groups.length) break;
  }
  return shown;
}

/** Runs by project, then by experiment, each keeping the order of the runs list. */
export function groupRuns(runs: readonly RunRow[]): Map<string, ExperimentGroup[]> {
  const projects = new Map<string, Map<string, ExperimentGroup>>();
  for (const run of runs) {
    const experiments = projects.get(run.project) ?? new Map<string, ExperimentGroup>();
    const experiment: ExperimentGroup = experiments.get(run.experiment_id) ?? {
      id: run.experiment_id,
      project: run.project,
      conditions: new Map<string, RunRow[]>(),
      runs: [],
    };
    experiment.runs.push(run);
    experiment.conditions.set(run.condition, [
      ...(experiment.conditions.get(run.condition) ?? []),
      run,
    ]);
    experiments.set(run.experiment_id, experiment);
    projects.set(run.project, experiments);
  }
  return new Map([...projects.entries()].map(([p, e]) => [p, [...e.values()]]));
}

/** The library's search: any of the names a user might remember, case aside. */
export function matchesSearch(run: RunRow, needle: string): boolean {
  if (!needle) return true;
  const hay = `${run.project} ${run.experiment_id} ${run.condition} ${run.run_id} ${run.format} ${run.path ?? ''}`;
  return hay.toLowerCase().includes(needle.toLowerCase());
}

/** A gone or replaced file says so first; an unfinished run is "incomplete" however it stopped. */
export function runState(run: RunRow): string {
  if (run.missing) return 'missing';
  if (run.superseded) return 'superseded';
  return run.state === 'completed'
    ? 'complete'
    : run.state === 'interrupted' || run.state === 'running'
      ? 'incomplete'
      : run.state;
}

/**
 * The role a condition's first row shows. The experiment has one reference (declared, chosen
 * or guessed); a run that calls itself the reference of a condition that is not that one is
 * shown as unknown rather than as a second reference.
 */
export function shownRole(
  condition: string,
  run: RunRow,
  reference: string | null | undefined,
): string {
  if (condition === reference) return 'reference';
  return run.role === 'reference' ? 'unknown' : (run.role ?? 'unknown');
}

/** Run ids are long hashes or paths: enough of one to tell it apart in a table cell. */
export function shortRunId(runId: string): string {
  return runId.length > 14 ? `${runId.slice(0, 14)}…` : runId;
}

/** An ISO time to the second, without its UTC marker or fraction; other offsets are kept. */
export function finishedLabel(finishedAt: string | null): string {
  return finishedAt?.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') ?? '—';
}
