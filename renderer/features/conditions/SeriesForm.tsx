import { useState } from 'react';
import { request } from '../../api';
import { useApp } from '../../store';
import type { ConditionRow } from '../../store/workbench';
import { useReadOnly } from '../../useReadOnly';

/** Series name and level of one condition, declared by hand and kept like a role. */
export function SeriesForm({ condition, onDone }: { condition: ConditionRow; onDone(): void }) {
  const experimentId = useApp((s) => s.experimentId)!;
  const { locked } = useReadOnly();
  const toast = useApp((s) => s.toast);
  const [series, setSeries] = useState(condition.series ?? '');
  const [level, setLevel] = useState(condition.level === null ? '' : String(condition.level));
  const save = async (clear: boolean) => {
    const parsed = level.trim() === '' ? null : Number(level);
    if (!clear && (series.trim() === '' || (parsed !== null && !Number.isFinite(parsed)))) {
      toast('error', 'A series needs a name, and its level a number.');
      return;
    }
    try {
      await request('conditions:setSeries', {
        experimentId,
        condition: condition.name,
        series: clear ? null : series.trim(),
        level: clear ? null : parsed,
      });
      onDone();
    } catch (error) {
      toast('error', (error as Error).message);
    }
  };
  return (
    <form
      className="series-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save(false);
      }}
    >
      <input
        value={series}
        onChange={(e) => setSeries(e.target.value)}
        placeholder="series, e.g. steering strength"
        aria-label={`Series of ${condition.name}`}
      />
      <input
        type="number"
        step="any"
        value={level}
        onChange={(e) => setLevel(e.target.value)}
        placeholder="level"
        aria-label={`Level of ${condition.name}`}
      />
      <button className="secondary" type="submit" {...locked}>
        Save series
      </button>
      {condition.series ? (
        <button className="link" type="button" onClick={() => void save(true)}>
          Clear
        </button>
      ) : null}
      <button className="link" type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
