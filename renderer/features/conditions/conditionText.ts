import type { ConditionRow } from '../../store/workbench';

type RunOfCondition = ConditionRow['runs'][number];

/** What the files expect of each metric, e.g. "refusal: decrease, length: no effect". */
export function expectationsText(expect: ConditionRow['expect']): string {
  return Object.entries(expect)
    .map(([metric, e]) => `${metric}: ${e.replace('_', ' ')}`)
    .join(', ');
}

/** A replaced or gone file says so before how the run ended. */
export function runStatusText(run: RunOfCondition): string {
  if (run.superseded) return 'superseded';
  if (run.missing) return 'missing';
  return run.state === 'completed' ? 'complete' : run.state;
}

/** The run's role menu shows its own role only where it differs from its condition's. */
export function runOverride(run: RunOfCondition, conditionRole: string): string {
  return run.role && run.role !== conditionRole ? run.role : '';
}
