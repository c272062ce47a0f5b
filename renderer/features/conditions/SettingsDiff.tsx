import { useMemo } from 'react';
import { plain } from '../../format';
import type { ConditionRow } from '../../store/workbench';

function leaves(value: unknown, prefix: string, out: Map<string, unknown>, depth = 0): void {
  if (value && typeof value === 'object' && !Array.isArray(value) && depth < 16) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.set(prefix, value);
    for (const [k, v] of entries) leaves(v, prefix ? `${prefix}.${k}` : k, out, depth + 1);
  } else if (prefix) {
    out.set(prefix, value);
  }
}

/** The selected conditions' settings side by side; rows whose values differ are highlighted. */
export function SettingsDiff({
  conditions,
  onlyDiffering,
}: {
  conditions: ConditionRow[];
  onlyDiffering: boolean;
}) {
  const { paths, values } = useMemo(() => {
    const values = conditions.map((c) => {
      const map = new Map<string, unknown>();
      leaves(c.settings, '', map);
      return map;
    });
    const paths = [...new Set(values.flatMap((m) => [...m.keys()]))].sort();
    return { paths, values };
  }, [conditions]);
  const differs = (path: string) =>
    new Set(values.map((m) => JSON.stringify(m.get(path) ?? null))).size > 1;
  const shown = paths.filter((p) => !onlyDiffering || differs(p));
  if (conditions.length === 0)
    return <p className="muted pad">Select conditions to see their settings side by side.</p>;
  return (
    <table className="grid settings-diff">
      <thead>
        <tr>
          <th>Setting</th>
          {conditions.map((c) => (
            <th key={c.name}>{c.name}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {shown.map((path) => (
          <tr key={path} className={differs(path) ? 'differs' : undefined}>
            <td className="mono">{path}</td>
            {values.map((m, i) => (
              <td key={conditions[i]!.name} className="mono wrap">
                {plain(m.get(path))}
              </td>
            ))}
          </tr>
        ))}
        {shown.length === 0 ? (
          <tr>
            <td colSpan={conditions.length + 1} className="muted">
              The selected conditions record the same settings.
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
