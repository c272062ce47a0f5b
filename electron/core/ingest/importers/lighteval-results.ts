import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Direction } from '../../../../shared/model';

/**
 * lighteval writes the aggregated results of a run beside its details, in a parallel tree:
 * `<output>/results/<model name>/results_<date>.json` for
 * `<output>/details/<model name>/<date>/details_<task>_<date>.parquet`. Their `config_tasks`
 * holds each task's configuration, its metrics included, and each metric says whether higher
 * is better: the only place lighteval states a direction (docs/formats-lighteval.md).
 */

/** A results file is a few kilobytes per task; a much larger one is not read whole. */
const MAX_RESULTS_BYTES = 32 * 1024 * 1024;

export function resultsPathOf(file: string): string | null {
  const parts = path.resolve(file).split(path.sep);
  const details = parts.lastIndexOf('details', parts.length - 3);
  if (details <= 0 || details >= parts.length - 3) return null;
  const date = parts[parts.length - 2]!;
  return path.join(
    parts.slice(0, details).join(path.sep) || path.sep,
    'results',
    ...parts.slice(details + 1, parts.length - 2),
    `results_${date}.json`,
  );
}

/**
 * One metric as lighteval serialises it: a single metric names itself and says yes or no; a
 * group names several and says it per name.
 */
const metricSchema = z.union([
  z.object({ metric_name: z.string(), higher_is_better: z.boolean() }),
  z.object({
    metric_name: z.array(z.string()),
    higher_is_better: z.record(z.string(), z.unknown()),
  }),
]);

/** Only what is read; the rest of the file (scores, configuration, summaries) is left. */
const resultsSchema = z.object({
  config_tasks: z.record(
    z.string(),
    // lighteval renamed the list from `metric` to `metrics`; older files name metrics only.
    z.object({ metrics: z.array(z.unknown()).optional(), metric: z.array(z.unknown()).optional() }),
  ),
});

/** `suite|task|few-shot` as the details name it; `config_tasks` may key it without the count. */
function sameTask(key: string, task: string): boolean {
  return key === task || key === task.replace(/\|\d+$/, '');
}

/**
 * The directions `results_<date>.json` gives the task's metrics, by metric name; empty when
 * there is no such file, it cannot be read, or it says nothing of the task.
 */
export async function lightevalDirections(
  file: string,
  task: string,
): Promise<Map<string, Direction>> {
  const directions = new Map<string, Direction>();
  const results = resultsPathOf(file);
  if (!results) return directions;
  let text: string;
  try {
    if ((await fs.promises.stat(results)).size > MAX_RESULTS_BYTES) return directions;
    text = await fs.promises.readFile(results, 'utf8');
  } catch {
    return directions;
  }
  let parsed;
  try {
    parsed = resultsSchema.safeParse(JSON.parse(text));
  } catch {
    return directions;
  }
  if (!parsed.success) return directions;
  const direction = (higher: unknown): Direction | null =>
    higher === true ? 'higher_is_better' : higher === false ? 'lower_is_better' : null;
  for (const [key, config] of Object.entries(parsed.data.config_tasks)) {
    if (!sameTask(key, task)) continue;
    for (const entry of config.metrics ?? config.metric ?? []) {
      const metric = metricSchema.safeParse(entry);
      if (!metric.success) continue;
      const { metric_name: names, higher_is_better: higher } = metric.data;
      for (const name of typeof names === 'string' ? [names] : names) {
        const said = direction(typeof higher === 'boolean' ? higher : higher[name]);
        if (said) directions.set(name, said);
      }
    }
  }
  return directions;
}
