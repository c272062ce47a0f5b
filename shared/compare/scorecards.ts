/**
 * Per-run scorecards: each compared run on its own, before any pairing — the values it reports
 * and how many examples it logged — so a reader can see what each side holds.
 */

import { compareStrings } from './canonical';
import { indexRun, isErrored } from './pairing';
import type { CompareRun, RunScorecard } from './types';

/** A run's distinct example ids, and how many of those examples errored. */
export interface ExampleCounts {
  examples: number;
  errored: number;
}

function exampleCounts(run: CompareRun): ExampleCounts {
  const { examples } = indexRun(run);
  return { examples: examples.length, errored: examples.filter(isErrored).length };
}

export function runScorecards(
  runs: CompareRun[],
  countsOf: (run: CompareRun) => ExampleCounts = exampleCounts,
): RunScorecard[] {
  return [...runs]
    .sort((a, b) => compareStrings(a.conditionName, b.conditionName))
    .map((run) => {
      const { examples, errored } = countsOf(run);
      return {
        condition: run.conditionName,
        run_id: run.runId,
        role: run.role,
        examples,
        ...(errored > 0 ? { errored } : {}),
        metrics: Object.keys(run.metrics)
          .sort(compareStrings)
          .map((name) => {
            const description = run.metricDefinitions[name]?.description;
            return {
              name,
              value: run.metrics[name] ?? null,
              description: typeof description === 'string' && description ? description : null,
            };
          }),
      };
    });
}
