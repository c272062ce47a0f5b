import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { ImportedRun } from '../../../shared/model';
import { CancelledError } from '../jobs/protocol';
import { sha256Files } from './hash';
import { statUnit, type UnitStat } from './identity';
import { importerVersions } from './importers';
import { isInspectJsonLog } from './importers/inspect';
import {
  importMechlens,
  isMechlensRecord,
  MECHLENS_RUNS_DIR,
  readExampleBatch,
} from './importers/mechlens';
import { positionOf, readRange, scanJsonObject, type ArrayLayout } from './json-layout';
import {
  cleanExampleBatch,
  cleanRunFields,
  MAX_EXAMPLES_PER_RUN,
  NormalizationCheck,
  tooManyExamples,
} from './limits';
import { RunColumnsBuilder } from '../columns/encode';
import { prepareExampleList } from './prepare';
import { checkDepth, DEFAULT_MAX_BYTES, explainJsonError } from './read';
import { DuplicateRunIdProblem, type IndexStore, type SourceRecord } from './store';
import { ImportProblem, sourcePathOf, type SourceUnit } from './types';

/**
 * MechLens run files from this size on are read in batches of examples instead of as one
 * string: V8 caps a string at ~512 MiB, and a whole-file parse holds the text, the parsed
 * value and the prepared rows at once (several times the file).
 */
export const STREAM_FROM_BYTES = 64 * 1024 ** 2;
/** About this many bytes of examples are parsed and written at a time. */
const BATCH_BYTES = 4 * 1024 ** 2;
/**
 * The run's other keys are parsed whole; past this they are not a run's settings and metrics
 * but something the whole-file path's value count refuses (an array bomb in "metrics").
 */
const MAX_HEADER_BYTES = 16 * 1024 ** 2;

export interface StreamOptions {
  streamFromBytes?: number;
  batchBytes?: number;
}

export type StreamedUnit =
  | { status: 'imported'; stat: UnitStat; runs: number; examples: number }
  | { status: 'failed'; stat: UnitStat; sha256: string | null; message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array, fd: number, offset: number): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ImportProblem(`${positionOf(fd, offset)}: not valid UTF-8 text`);
  }
}

/** JSON.parse of part of the file, its errors placed in the file rather than in the part. */
function parsePart(text: string, fd: number, offset: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = positionOf(fd, offset).replace(/, column.*$/, '');
    throw new ImportProblem(`near ${where}: ${explainJsonError(text, error, 1, false)}`);
  }
  // Depth as in the whole document, where this part sits inside the run object.
  if (value !== null && typeof value === 'object') checkDepth([value]);
  return value;
}

/** The run's top-level keys other than `examples`, as JSON.parse of the whole file gives them. */
function readHeader(fd: number, members: { key: string; valueStart: number; valueEnd: number }[]) {
  return Object.fromEntries(
    members.map(({ key, valueStart, valueEnd }) => {
      const text = decode(readRange(fd, valueStart, valueEnd), fd, valueStart);
      return [key, parsePart(text, fd, valueStart)];
    }),
  ) as Record<string, unknown>;
}

interface Plan {
  run: ImportedRun;
  array: ArrayLayout;
}

/** Null when the file is not a MechLens record with an examples list: the whole-file path's. */
function plan(fd: number, unit: SourceUnit, stat: UnitStat, batchBytes: number): Plan | null {
  const runsDir = MECHLENS_RUNS_DIR.test(unit.path);
  let layout;
  try {
    layout = scanJsonObject(fd, stat.size, 'examples', batchBytes);
  } catch (error) {
    // Outside a runs folder a broken file may be something else: the whole-file path decides.
    if (error instanceof ImportProblem && !runsDir) return null;
    throw error;
  }
  if (!layout?.array) return null;
  const headerBytes = layout.members.reduce((sum, m) => sum + m.valueEnd - m.valueStart, 0);
  if (headerBytes > MAX_HEADER_BYTES) return null;
  const header = readHeader(fd, layout.members);
  header.examples = [];
  if (isInspectJsonLog(header) || !isMechlensRecord(header, unit.path)) return null;
  if (layout.array.elements > MAX_EXAMPLES_PER_RUN) throw tooManyExamples(layout.array.elements);
  const run = importMechlens(header, { path: unit.path, mtimeMs: stat.mtimeMs });
  cleanRunFields(run);
  return { run, array: layout.array };
}

/**
 * Writes the planned run batch by batch inside one transaction held by the caller, yielding
 * between batches so a cancel is seen. Returns the number of examples written.
 */
async function writeBatches(
  fd: number,
  store: IndexStore,
  record: SourceRecord,
  { run, array }: Plan,
  signal: AbortSignal,
  onBytes: (bytesRead: number) => void,
): Promise<number> {
  const taken = store.ownedElsewhere(record.path, [run.runId]);
  if (taken.length > 0) throw new DuplicateRunIdProblem(taken);
  const sourceId = store.replaceSource(record);
  const rowid = store.insertRunRow(sourceId, record, run, array.elements);
  const seen = new Map<string, number>();
  const cleaned = new Map<string, string>();
  const normalization = new NormalizationCheck();
  const columns = new RunColumnsBuilder();
  let written = 0;
  for (const batch of array.batches) {
    const text = decode(readRange(fd, batch.start, batch.end), fd, batch.start);
    const raw = parsePart(`[${text}]`, fd, batch.start) as unknown[];
    const examples = readExampleBatch(raw, batch.first, seen);
    cleanExampleBatch(examples, seen, cleaned);
    normalization.add(examples);
    store.insertExamples(rowid, examples, prepareExampleList(examples), undefined, columns);
    written += examples.length;
    onBytes(batch.end);
    await yieldToEvents();
    if (signal.aborted) throw new CancelledError();
  }
  if (written !== array.elements) {
    throw new ImportProblem(`the examples list holds ${written} examples, not ${array.elements}`);
  }
  const warning = normalization.warning();
  if (warning) store.setWarnings(rowid, [...run.warnings, warning]);
  store.writeColumns(rowid, columns);
  return written;
}

/**
 * A large MechLens run file, read and stored in batches of examples (bounded memory whatever
 * its size), storing exactly what the whole-file path stores. Null when the unit is not one
 * (too small, another format, not an object with an examples list): importUnitFile reads it.
 */
export async function streamUnit(
  unit: SourceUnit,
  folder: string | null,
  store: IndexStore,
  signal: AbortSignal,
  begin: () => Promise<void>,
  options: StreamOptions = {},
  onBytes: (bytesRead: number) => void = () => undefined,
): Promise<StreamedUnit | null> {
  if (unit.kind !== 'file' || path.extname(unit.path).toLowerCase() !== '.json') return null;
  const stat = statUnit(unit);
  if (stat.size < (options.streamFromBytes ?? STREAM_FROM_BYTES)) return null;
  // The per-file limit stays one for both paths: the whole-file reader refuses it by size.
  if (stat.size > DEFAULT_MAX_BYTES) return null;
  const fd = fs.openSync(unit.path, 'r');
  let sha256: string | null = null;
  const record = (): SourceRecord => ({
    path: sourcePathOf(unit),
    folder,
    stat,
    sha256,
    importer: 'mechlens',
    importerVersion: importerVersions.mechlens ?? null,
  });
  try {
    let planned: Plan | null;
    try {
      planned = plan(fd, unit, stat, options.batchBytes ?? BATCH_BYTES);
    } catch (error) {
      if (!(error instanceof ImportProblem)) throw error;
      return { status: 'failed', stat, sha256, message: error.message };
    }
    if (!planned) return null;
    sha256 = await sha256Files(unit.files, signal);
    await begin();
    try {
      const examples = await writeBatches(fd, store, record(), planned, signal, onBytes);
      const after = statUnit(unit);
      if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) {
        throw new ImportProblem(
          'the file changed while it was being read; it will be indexed again when it settles.',
        );
      }
      store.commit();
      return { status: 'imported', stat, runs: 1, examples };
    } catch (error) {
      store.rollback();
      // The other file's run says so too (outside the rolled-back transaction).
      if (error instanceof DuplicateRunIdProblem) store.refuseDuplicates(record(), error.taken);
      if (!(error instanceof ImportProblem)) throw error;
      return { status: 'failed', stat, sha256, message: error.message };
    }
  } finally {
    fs.closeSync(fd);
  }
}
