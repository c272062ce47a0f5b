/**
 * Per-run scorecards: each compared run on its own, before any pairing — the values it reports
 * and how many examples it logged — so a reader can see what each side holds.
 */

import { compareStrings } from './canonical';
import { indexRun, isErrored } from './pairing';
import type { CompareRun, RunScorecard } from './types';

export function runScorecards(runs: CompareRun[]): RunScorecard[] {
  return [...runs]
    .sort((a, b) => compareStrings(a.conditionName, b.conditionName))
    .map((run) => {
      const { examples } = indexRun(run);
      const errored = examples.filter(isErrored).length;
      return {
        condition: run.conditionName,
        run_id: run.runId,
        role: run.role,
        examples: examples.length,
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
