import type { JsonObject, JsonValue } from '../../shared/model';
import { flatten } from '../../shared/compare/canonical';
import type { Db } from './db/open';
import { setRunOverride } from './experiments';

interface SettingsRow {
  id: string;
  settings: string;
}

function runSettings(db: Db, experimentId: string): SettingsRow[] {
  return db
    .prepare(`SELECT id, settings FROM runs WHERE experiment_id = ? ORDER BY id`)
    .all(experimentId) as SettingsRow[];
}

function leafPaths(settings: string): Map<string, JsonValue> {
  const parsed = JSON.parse(settings) as Record<string, JsonValue>;
  const result = new Map<string, JsonValue>();
  for (const [section, value] of Object.entries(parsed)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [leaf, v] of flatten(value as JsonObject)) result.set(`${section}.${leaf}`, v);
  }
  return result;
}

/** Every settings path any run of the experiment records, for the "group by" picker. */
export function settingsFields(db: Db, experimentId: string): string[] {
  const paths = new Set<string>();
  for (const row of runSettings(db, experimentId))
    for (const key of leafPaths(row.settings).keys()) paths.add(key);
  return [...paths].sort();
}

function label(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'none';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Groups plain runs into conditions by one settings path (e.g. intervention.steering_strength):
 * each run's condition becomes `<field>=<value>`, kept as a hand-made override.
 */
export function groupRunsBy(db: Db, experimentId: string, field: string): number {
  const rows = runSettings(db, experimentId);
  const names = new Set<string>();
  db.transaction(() => {
    for (const row of rows) {
      const name = `${field}=${label(leafPaths(row.settings).get(field))}`;
      names.add(name);
      setRunOverride(db, row.id, { condition: name });
    }
  })();
  return names.size;
}
