import { memo, useRef, useState } from 'react';
import { useApp } from '../../store';
import type { ExamplesFilter } from '../../store/workbench';

const classes = ['improved', 'regressed', 'unchanged', 'changed', 'not_comparable'] as const;

function tri(value: boolean | undefined): string {
  return value === undefined ? '' : value ? 'yes' : 'no';
}

function fromTri(value: string): boolean | undefined {
  return value === '' ? undefined : value === 'yes';
}

/** An any / yes / no choice for a boolean filter. */
function YesNo({
  label,
  value,
  onChange,
}: {
  label: string;
  value: boolean | undefined;
  onChange(value: boolean | undefined): void;
}) {
  return (
    <label className="inline">
      {label}
      <select
        aria-label={label[0]!.toUpperCase() + label.slice(1)}
        value={tri(value)}
        onChange={(e) => onChange(fromTri(e.target.value))}
      >
        <option value="">any</option>
        <option value="yes">yes</option>
        <option value="no">no</option>
      </select>
    </label>
  );
}

export const Filters = memo(function Filters({
  criteria,
  searchRef,
}: {
  criteria: string[];
  searchRef: React.RefObject<HTMLInputElement | null>;
}) {
  const filter = useApp((s) => s.filter);
  const setFilter = useApp((s) => s.setFilter);
  const [search, setSearch] = useState(filter.search ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Typing searches a quarter second after the last key, not on every key.
  const onSearch = (text: string) => {
    setSearch(text);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const latest = useApp.getState().filter;
      setFilter({ ...latest, search: text || undefined });
    }, 250);
  };
  const update = (patch: Partial<ExamplesFilter>) => {
    const next: ExamplesFilter = { ...filter, ...patch };
    for (const key of Object.keys(next) as (keyof ExamplesFilter)[])
      if (next[key] === undefined) delete next[key];
    setFilter(next);
  };
  return (
    <div className="filters" role="group" aria-label="Filters">
      <input
        ref={searchRef}
        type="search"
        className="search"
        placeholder="Search inputs and outputs (Ctrl+F)"
        aria-label="Search inputs and outputs"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
      />
      <label className="inline">
        criterion
        <select
          aria-label="Criterion"
          value={filter.criterion ?? ''}
          onChange={(e) => update({ criterion: e.target.value || undefined })}
        >
          <option value="">any</option>
          {criteria.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        change
        <select
          aria-label="Change class"
          value={filter.changeClass ?? ''}
          onChange={(e) =>
            update({ changeClass: (e.target.value || undefined) as ExamplesFilter['changeClass'] })
          }
        >
          <option value="">any</option>
          {classes.map((c) => (
            <option key={c} value={c}>
              {c.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <YesNo
        label="output changed"
        value={filter.outputChanged}
        onChange={(outputChanged) => update({ outputChanged })}
      />
      <YesNo
        label="behaviour changed"
        value={filter.behaviorChanged}
        onChange={(behaviorChanged) => update({ behaviorChanged })}
      />
      <label className="inline">
        in
        <select
          aria-label="Side"
          value={filter.side ?? ''}
          onChange={(e) =>
            update({ side: (e.target.value || undefined) as ExamplesFilter['side'] })
          }
        >
          <option value="">either run</option>
          <option value="both">both runs</option>
          <option value="reference">reference only</option>
          <option value="candidate">candidate only</option>
        </select>
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={filter.inputMismatch === true}
          onChange={(e) => update({ inputMismatch: e.target.checked ? true : undefined })}
        />
        input mismatch
      </label>
      {Object.keys(filter).length > 0 ? (
        <button
          className="link"
          onClick={() => {
            setSearch('');
            setFilter({});
          }}
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
});
