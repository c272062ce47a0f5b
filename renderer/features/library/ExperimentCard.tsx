import { memo } from 'react';
import { count, counted } from '../../format';
import type { RunRow } from '../../store/library';
import type { ExperimentRow } from '../../store/workbench';
import { referenceGuessed } from '../conditions/roles';
import {
  finishedLabel,
  runState,
  shortRunId,
  shownRole,
  type ExperimentGroup,
} from './libraryTree';

/** The effective role: the experiment's one reference (declared, chosen or guessed). */
function RoleTag({ role }: { role: string }) {
  return <span className={`role role-${role}`}>{role}</span>;
}

/** An experiment's runs grouped by condition, its library row, and what opening it does. */
interface ExperimentProps {
  experiment: ExperimentGroup;
  meta: ExperimentRow | undefined;
  onOpen(experimentId: string): void;
}

function ExperimentHead({ experiment, meta, onOpen }: ExperimentProps) {
  return (
    <header className="experiment-head">
      <button className="link experiment-name" onClick={() => onOpen(experiment.id)}>
        {meta?.name ?? experiment.id}
      </button>
      <span className="muted mono">{experiment.id}</span>
      <span className="muted">
        {counted(experiment.conditions.size, 'condition')} ·{' '}
        {counted(experiment.runs.length, 'run')} ·{' '}
        {[...new Set(experiment.runs.map((r) => r.format))].join(', ')}
      </span>
      {experiment.conditions.size > 1 && referenceGuessed(meta?.referenceBasis) ? (
        <span
          className="tag guessed"
          title="Nothing in the files declares the reference: Pairwise guessed it. Change it in the Conditions view."
        >
          reference guessed
        </span>
      ) : null}
      <span className="spacer" />
      <button className="secondary" onClick={() => onOpen(experiment.id)}>
        Compare
      </button>
    </header>
  );
}

/** One run; the first run of a condition also names the condition and its role. */
function RunLine({
  run,
  condition,
  first,
  reference,
}: {
  run: RunRow;
  condition: string;
  first: boolean;
  reference: string | null | undefined;
}) {
  return (
    <tr className={run.superseded || run.missing ? 'dim' : undefined}>
      <td className="condition-name">{first ? condition : ''}</td>
      <td>{first ? <RoleTag role={shownRole(condition, run, reference)} /> : ''}</td>
      <td className="mono" title={run.path ?? undefined}>
        {shortRunId(run.run_id)}
      </td>
      <td>{run.format}</td>
      <td className="num">{count(run.examples)}</td>
      <td>
        <span
          className={`state state-${runState(run)}`}
          title={run.warnings.join('\n') || undefined}
        >
          {runState(run)}
        </span>
      </td>
      <td className="muted">{finishedLabel(run.finished_at)}</td>
    </tr>
  );
}

function RunsTable({
  experiment,
  reference,
}: {
  experiment: ExperimentGroup;
  reference: string | null | undefined;
}) {
  return (
    <table className="grid compact">
      <thead>
        <tr>
          <th>Condition</th>
          <th>Role</th>
          <th>Run</th>
          <th>Format</th>
          <th className="num">Examples</th>
          <th>State</th>
          <th>Finished</th>
        </tr>
      </thead>
      <tbody>
        {[...experiment.conditions.entries()].flatMap(([condition, list]) =>
          list.map((run, i) => (
            <RunLine
              key={run.run_id}
              run={run}
              condition={condition}
              first={i === 0}
              reference={reference}
            />
          )),
        )}
      </tbody>
    </table>
  );
}

/**
 * One experiment in the library: its name, what it holds, and every run by condition. Memoized:
 * the library re-renders for a toggle or a refresh that leaves most cards as they were.
 */
export const ExperimentCard = memo(function ExperimentCard({
  experiment,
  meta,
  onOpen,
}: ExperimentProps) {
  return (
    <article className="experiment-card">
      <ExperimentHead experiment={experiment} meta={meta} onOpen={onOpen} />
      {meta?.question && meta.question !== meta.name ? (
        <p className="question">{meta.question}</p>
      ) : null}
      <RunsTable experiment={experiment} reference={meta?.reference} />
    </article>
  );
});
