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

/** A labelled choice among a few values; "" is the choice that filters nothing. */
function Choice({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  /** Its accessible name. */
  name: string;
  value: string;
  options: readonly (readonly [value: string, text: string])[];
  onChange(value: string): void;
}) {
  return (
    <label className="inline">
      {label}
      <select aria-label={name} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

const yesNoOptions = [
  ['', 'any'],
  ['yes', 'yes'],
  ['no', 'no'],
] as const;

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
    <Choice
      label={label}
      name={label[0]!.toUpperCase() + label.slice(1)}
      value={tri(value)}
      options={yesNoOptions}
      onChange={(v) => onChange(fromTri(v))}
    />
  );
}

const classOptions = [
  ['', 'any'],
  ...classes.map((c) => [c, c.replace('_', ' ')] as const),
] as const;

const sideOptions = [
  ['', 'either run'],
  ['both', 'both runs'],
  ['reference', 'reference only'],
  ['candidate', 'candidate only'],
] as const;

/**
 * The search box's text: shown as typed, and set on the filter a quarter second after the last
 * key rather than on every key.
 */
function useDebouncedSearch(initial: string | undefined) {
  const setFilter = useApp((s) => s.setFilter);
  const [search, setSearch] = useState(initial ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onSearch = (text: string) => {
    setSearch(text);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const latest = useApp.getState().filter;
      setFilter({ ...latest, search: text || undefined });
    }, 250);
  };
  return { search, setSearch, onSearch };
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
  const { search, setSearch, onSearch } = useDebouncedSearch(filter.search);
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
      <Choice
        label="criterion"
        name="Criterion"
        value={filter.criterion ?? ''}
        options={[['', 'any'], ...criteria.map((c) => [c, c] as const)]}
        onChange={(v) => update({ criterion: v || undefined })}
      />
      <Choice
        label="change"
        name="Change class"
        value={filter.changeClass ?? ''}
        options={classOptions}
        onChange={(v) => update({ changeClass: (v || undefined) as ExamplesFilter['changeClass'] })}
      />
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
      <Choice
        label="in"
        name="Side"
        value={filter.side ?? ''}
        options={sideOptions}
        onChange={(v) => update({ side: (v || undefined) as ExamplesFilter['side'] })}
      />
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
