/**
 * Where the app (and `pairwise examples`) opens: the experiment run most recently among those
 * with examples to look at, never one with none while another has some (its views would only
 * say that nothing matches). A library of metrics alone opens on its latest experiment.
 */
export function startExperiment<E extends { examples: number; lastRunAt: string | null }>(
  experiments: readonly E[],
): E | null {
  const latest = (list: readonly E[]) =>
    list.reduce<E | null>(
      (best, e) => (!best || (e.lastRunAt ?? '') > (best.lastRunAt ?? '') ? e : best),
      null,
    );
  return latest(experiments.filter((e) => e.examples > 0)) ?? latest(experiments);
}
