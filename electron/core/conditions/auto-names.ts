import {
  canonicalJson,
  compareStrings,
  flatten,
  isJsonObject,
} from '../../../shared/compare/canonical';
import type { JsonValue } from '../../../shared/model';

/**
 * Formats whose files name no condition: the importer's name (model plus a few settings) only
 * says which model ran. Two runs of them that record different settings are different
 * conditions, named here by what differs; runs with identical settings are replicates.
 */
const NAMED_BY_SETTINGS = new Set(['inspect', 'lm-eval', 'lighteval', 'promptfoo']);

/** A value longer than this is cut in a name: the full value is in the checks. */
const VALUE_CHARS = 32;
/** A name longer than this is cut; names stay unique by a trailing ordinal. */
const NAME_CHARS = 160;
const HASH = /^[0-9a-f]{12,64}$/i;

export interface RunForNaming {
  id: string;
  format: string;
  /** The condition name the importer gave. */
  condition: string;
  /** The run's settings as stored (JSON text). */
  settings: string;
  codeCommit: string | null;
  /** Oldest first among equal names gets the lowest ordinal when names collide. */
  sortTime: string | null;
}

/** Leaf path → canonical value text, with the code revision as `revision`. */
function recordedSettings(run: RunForNaming): Map<string, string> {
  const leaves = new Map<string, string>();
  const parsed = JSON.parse(run.settings) as Record<string, JsonValue>;
  for (const section of Object.keys(parsed).sort(compareStrings)) {
    const value = parsed[section];
    if (!isJsonObject(value)) continue;
    for (const [leaf, v] of flatten(value)) {
      if (v !== null) leaves.set(`${section}.${leaf}`, canonicalJson(v));
    }
  }
  if (run.codeCommit) leaves.set('revision', JSON.stringify(run.codeCommit));
  return leaves;
}

function fingerprint(leaves: Map<string, string>): string {
  return [...leaves.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

function shownValue(canonical: string | undefined): string {
  if (canonical === undefined) return 'none';
  const parsed = JSON.parse(canonical) as JsonValue;
  let text = typeof parsed === 'string' ? parsed : canonical;
  if (HASH.test(text)) text = text.slice(0, 7);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

/** The last segment of a path, or more of it where the last segment alone is ambiguous. */
function shortKeys(paths: string[]): Map<string, string> {
  const short = new Map<string, string>();
  for (const path of paths) {
    const segments = path.split('.');
    let take = 1;
    const suffix = (p: string, n: number) => p.split('.').slice(-n).join('.');
    while (
      take < segments.length &&
      paths.some((other) => other !== path && suffix(other, take) === suffix(path, take))
    ) {
      take += 1;
    }
    short.set(path, suffix(path, take));
  }
  return short;
}

function clip(name: string): string {
  return name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name;
}

/**
 * The effective condition name of every run of one experiment. Runs of the formats above that
 * share the importer's name but record different settings get that name plus each setting that
 * differs among them (`openai/gpt-4o revision=de1d065`, `… batch_size=8`); runs with equal
 * settings keep one name, as replicates. Other formats keep the importer's name.
 */
export function conditionNames(runs: RunForNaming[]): Map<string, string> {
  const names = new Map<string, string>();
  const groups = new Map<string, RunForNaming[]>();
  for (const run of runs) {
    if (!NAMED_BY_SETTINGS.has(run.format)) {
      names.set(run.id, run.condition);
      continue;
    }
    const list = groups.get(run.condition) ?? [];
    list.push(run);
    groups.set(run.condition, list);
  }
  for (const [base, list] of groups) {
    const leaves = new Map(list.map((run) => [run.id, recordedSettings(run)]));
    const byPrint = new Map<string, RunForNaming[]>();
    for (const run of list) {
      const print = fingerprint(leaves.get(run.id)!);
      byPrint.set(print, [...(byPrint.get(print) ?? []), run]);
    }
    if (byPrint.size === 1) {
      for (const run of list) names.set(run.id, base);
      continue;
    }
    const representatives = [...byPrint.values()].map((group) => leaves.get(group[0]!.id)!);
    const differing = namingPaths(representatives);
    const short = shortKeys(differing);
    const groupsInOrder = [...byPrint.values()].sort((a, b) =>
      compareStrings(earliest(a), earliest(b)),
    );
    const used = new Set<string>();
    for (const group of groupsInOrder) {
      const own = leaves.get(group[0]!.id)!;
      const parts = differing.map((p) => `${short.get(p)}=${shownValue(own.get(p))}`);
      let name = clip([base, ...parts].join(' '));
      for (let ordinal = 2; used.has(name); ordinal++) name = `${clip(base)} #${ordinal}`;
      used.add(name);
      for (const run of group) names.set(run.id, name);
    }
  }
  return names;
}

/**
 * The settings a name shows: those every group records with different values, then, only as
 * far as needed to tell the groups apart, those some groups leave out (an older writer that
 * does not record a key is not a setting the user changed).
 */
function namingPaths(groups: Map<string, string>[]): string[] {
  const all = [...new Set(groups.flatMap((leaves) => [...leaves.keys()]))].sort(compareStrings);
  const distinct = (p: string) => new Set(groups.map((leaves) => leaves.get(p) ?? '')).size;
  const differing = all.filter((p) => distinct(p) > 1);
  const chosen = differing.filter((p) => groups.every((leaves) => leaves.has(p)));
  const rest = differing
    .filter((p) => !chosen.includes(p))
    .sort((a, b) => distinct(b) - distinct(a) || compareStrings(a, b));
  const unique = () =>
    new Set(groups.map((leaves) => chosen.map((p) => leaves.get(p) ?? '').join('\u0000'))).size ===
    groups.length;
  while (!unique() && rest.length > 0) chosen.push(rest.shift()!);
  return chosen.sort(compareStrings);
}

function earliest(group: RunForNaming[]): string {
  return group.map((r) => `${r.sortTime ?? ''}\u0000${r.id}`).sort(compareStrings)[0]!;
}
