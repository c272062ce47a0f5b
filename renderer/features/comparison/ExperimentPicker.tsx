import { useApp } from '../../store';
import { refreshExperiment } from '../../sync';

export function ExperimentPicker() {
  const experiments = useApp((s) => s.experiments);
  const experimentId = useApp((s) => s.experimentId);
  const select = useApp((s) => s.selectExperiment);
  const runPair = useApp((s) => s.runPair);
  return (
    <select
      aria-label="Experiment"
      value={experimentId ?? ''}
      onChange={(e) => {
        select(e.target.value);
        void refreshExperiment();
      }}
    >
      {runPair && experimentId ? (
        <option value={experimentId}>
          Two runs: {runPair.baseline} vs {runPair.candidate}
        </option>
      ) : null}
      {experiments.map((e) => (
        <option key={e.id} value={e.id}>
          {e.project} / {e.name === e.id ? e.id : `${e.name}`}
        </option>
      ))}
    </select>
  );
}
