import type { ImportedExample, ImportedRun } from '../../../shared/model';
import { redactRun } from './redact';
import type { SeenIds } from './seen-ids';
import { ImportProblem } from './types';
import { formatCount } from '../../../shared/format';

/**
 * Checks every importer's output passes through in the index worker, before the run is
 * written: a per-run example limit, text SQLite can store faithfully, and ids that stay
 * distinct once stored (for a large MechLens file, batch by batch: stream-unit.ts).
 */

/**
 * A whole-file read holds a run's examples in memory several times over (text, parsed,
 * mapped, prepared), about 600 MB per million small examples at peak. Twice the largest run we benchmark
 * (test/bench, 1M examples) keeps a legitimate run well inside that, and a hostile one out.
 */
export const MAX_EXAMPLES_PER_RUN = 2_000_000;

/** `found` is null when a streaming reader stopped at the limit without counting the rest. */
export function tooManyExamples(found: number | null): ImportProblem {
  const how =
    found === null ? `more than ${formatCount(MAX_EXAMPLES_PER_RUN)}` : formatCount(found);
  return new ImportProblem(
    `the run holds ${how} examples, over the limit of ${formatCount(MAX_EXAMPLES_PER_RUN)} per run ` +
      '(every example costs memory while it is indexed); write it as several smaller runs, ' +
      'for example one per shard of the dataset, or as a sample, and index again',
  );
}

const SURROGATE = /[\ud800-\udfff]/;
/** Ids of printable ASCII (the usual case) are the same in every normalization form. */
const MAY_NORMALIZE = /[^ -~\t\n\r]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * JSON can carry lone surrogates ("\ud800"), which are not Unicode text. SQLite would store
 * them as invalid UTF-8 that reads back as other characters, so an id could never be found
 * again; they are replaced by U+FFFD, as a UTF-8 encoder does.
 */
export function wellFormed(text: string): string {
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\ufffd') : text;
}

function wellFormedOrNull(text: string | null): string | null {
  return text === null ? null : wellFormed(text);
}

/** An id as a person can tell it apart from a look-alike: non-ASCII as \u escapes. */
export function showId(id: string): string {
  const escaped = id.replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped.length > 80 ? `${escaped.slice(0, 79)}…` : escaped}"`;
}

function cleanExample(example: ImportedExample): void {
  example.input = wellFormed(example.input);
  example.output = wellFormed(example.output);
  example.target = wellFormedOrNull(example.target);
  example.error = wellFormedOrNull(example.error);
}

/** Lone surrogates in ids: replaced, then refused if two ids became one. */
function cleanIds(examples: ImportedExample[]): void {
  if (!examples.some((example) => SURROGATE.test(example.id))) return;
  const ids = new Map<string, string>();
  for (const example of examples) {
    const original = example.id;
    example.id = wellFormed(original);
    const other = ids.get(example.id);
    if (other !== undefined) {
      throw idClash(other, original);
    }
    ids.set(example.id, original);
  }
}

/**
 * Ids are compared byte for byte, so "é" as one code point (NFC) and as e + combining accent
 * (NFD) are two ids. That is kept (normalizing would merge examples a producer kept apart),
 * but a run that holds both gets a warning, since other runs may use only one form. Fed in
 * batches when a large run is read in pieces.
 */
export class NormalizationCheck {
  private readonly byNfc = new Map<string, string>();
  private readonly clashes: string[] = [];

  add(examples: ImportedExample[]): void {
    for (const { id } of examples) {
      if (!MAY_NORMALIZE.test(id)) continue;
      const nfc = id.normalize('NFC');
      const other = this.byNfc.get(nfc);
      if (other === undefined) this.byNfc.set(nfc, id);
      else if (other !== id) this.clashes.push(`${showId(other)} and ${showId(id)}`);
    }
  }

  warning(): string | null {
    const clashes = this.clashes;
    if (clashes.length === 0) return null;
    const list = clashes.slice(0, 3).join(', ') + (clashes.length > 3 ? ', …' : '');
    return (
      `${formatCount(clashes.length)} pair(s) of example ids differ only in Unicode normalization (${list}); ` +
      'they are kept as different examples, so check that the runs you compare write ids in one form'
    );
  }
}

/**
 * Everything but the examples: text SQLite can store faithfully, and no credentials. Both the
 * whole-file and the streamed path call this on every run before it is written.
 */
export function cleanRunFields(run: ImportedRun): void {
  redactRun(run);
  run.runId = wellFormed(run.runId);
  run.project = wellFormed(run.project);
  run.formatVersion = wellFormedOrNull(run.formatVersion);
  run.codeCommit = wellFormedOrNull(run.codeCommit);
  run.startedAt = wellFormedOrNull(run.startedAt);
  run.finishedAt = wellFormedOrNull(run.finishedAt);
  run.condition.name = wellFormed(run.condition.name);
  run.condition.series = wellFormedOrNull(run.condition.series);
  if (run.experiment) {
    run.experiment.id = wellFormed(run.experiment.id);
    run.experiment.name = wellFormed(run.experiment.name);
    run.experiment.question = wellFormedOrNull(run.experiment.question);
    run.experiment.claim = wellFormedOrNull(run.experiment.claim);
  }
}

/**
 * What cleanIds and cleanExample do for a whole run, for a run read in batches: `seen` holds
 * every raw id of the run read so far (readExampleBatch fills it), `cleaned` the ids that had
 * lone surrogates, by what they became. An id that becomes another id is refused wherever
 * the two fall in the file.
 */
export function cleanExampleBatch(
  examples: ImportedExample[],
  seen: SeenIds,
  cleaned: Map<string, string>,
): void {
  for (const example of examples) {
    const original = example.id;
    if (SURROGATE.test(original)) {
      example.id = wellFormed(original);
      const other =
        example.id !== original && seen.has(example.id) ? example.id : cleaned.get(example.id);
      if (other !== undefined) throw idClash(other, original);
      cleaned.set(example.id, original);
    } else {
      const other = cleaned.get(original);
      if (other !== undefined && other !== original) throw idClash(other, original);
    }
    cleanExample(example);
  }
}

function idClash(one: string, other: string): ImportProblem {
  return new ImportProblem(
    `example ids ${showId(one)} and ${showId(other)} contain invalid UTF-16 ` +
      '(lone surrogates); once that is replaced they are the same id, so their examples ' +
      'cannot be told apart. Fix the ids where the run is written',
  );
}

export function checkImportedRuns(runs: ImportedRun[]): void {
  for (const run of runs) {
    if (run.examples.length > MAX_EXAMPLES_PER_RUN) throw tooManyExamples(run.examples.length);
    cleanRunFields(run);
    cleanIds(run.examples);
    for (const example of run.examples) cleanExample(example);
    const check = new NormalizationCheck();
    check.add(run.examples);
    const warning = check.warning();
    if (warning) run.warnings.push(warning);
  }
}
