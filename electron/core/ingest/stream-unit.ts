import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { ImportedRun } from '../../../shared/model';
import { CancelledError } from '../jobs/protocol';
import { sha256Files, sha256OfFile } from './hash';
import { statUnit, type UnitStat } from './identity';
import { importerVersions } from './importers';
import { isInspectJsonLog } from './importers/inspect';
import { importMechlens, isMechlensRecord, MECHLENS_RUNS_DIR } from './importers/mechlens';
import { readRange, scanJsonObject, type ArrayLayout, type JsonLayout } from './json-layout';
import { cleanRunFields, MAX_EXAMPLES_PER_RUN, tooManyExamples } from './limits';
import { DEFAULT_MAX_BYTES, MAX_JSON_DEPTH } from './read';
import { RunColumnsBuilder } from '../columns/encode';
import { isLocatable } from './locate-runs';
import { BatchReader, decode, parsePart, type ParsedBatch } from './stream-batches';
import { DuplicateRunIdProblem, type IndexStore, type SourceRecord } from './store';
import { ImportProblem, sourcePathOf, type SourceUnit } from './types';

/**
 * MechLens run files from this size on are read in batches of examples instead of as one
 * string: V8 caps a string at ~512 MiB, and a whole-file parse holds the text, the parsed
 * value and the prepared rows at once (several times the file).
 */
export const STREAM_FROM_BYTES = 64 * 1024 ** 2;
/**
 * About this many bytes of examples are parsed and written at a time. A batch's parsed
 * examples are alive while it is prepared: at 4 MB they outgrew V8's young generation, were
 * copied and promoted by every scavenge and left for full collections, and the worker spent
 * ~18% more CPU on the same file than at 1 MB.
 */
const BATCH_BYTES = 1024 ** 2;
/** How much of a file may be parsed ahead while another worker holds the write lock. */
const AHEAD_BYTES = 32 * 1024 ** 2;
/**
 * A file whose examples are no larger than this is parsed ahead in full while another worker
 * holds the lock, so that once it has the lock it only writes: with one writer at a time, the
 * parse of a mid-sized run otherwise lengthens the lock. Larger runs keep to AHEAD_BYTES, since
 * their parsed batches (about three times their bytes) would add to what the writer holds.
 */
const WHOLE_AHEAD_BYTES = 128 * 1024 ** 2;
/** How much a located file's batches may hold, read before the lock (readBeforeLocking). */
const KEPT_MAX_BYTES = 256 * 1024 ** 2;
/**
 * The run's other keys are parsed whole; past this they are not a run's settings and metrics
 * but something the whole-file path's value count refuses (an array bomb in "metrics").
 */
const MAX_HEADER_BYTES = 16 * 1024 ** 2;

export interface StreamOptions {
  streamFromBytes?: number;
  batchBytes?: number;
  /** How much may be parsed ahead of taking the write lock (tests lower it). */
  aheadBytes?: number;
}

/** The bytes of examples a run file may parse while another worker holds the lock. */
export function aheadLimit({ batches }: ArrayLayout, options: StreamOptions): number {
  if (options.aheadBytes !== undefined) return options.aheadBytes;
  const bytes = batches.length === 0 ? 0 : batches[batches.length - 1]!.end - batches[0]!.start;
  return bytes <= WHOLE_AHEAD_BYTES ? bytes : AHEAD_BYTES;
}

export type StreamedUnit =
  | { status: 'imported'; stat: UnitStat; runs: number; examples: number }
  | { status: 'failed'; stat: UnitStat; sha256: string | null; message: string };

/** The run's top-level keys other than `examples`, as JSON.parse of the whole file gives them. */
function readHeader(fd: number, { members, maxDepth }: JsonLayout) {
  return Object.fromEntries(
    members.map(({ key, valueStart, valueEnd }) => {
      const text = decode(readRange(fd, valueStart, valueEnd), fd, valueStart);
      return [key, parsePart(text, fd, valueStart, maxDepth > MAX_JSON_DEPTH)];
    }),
  ) as Record<string, unknown>;
}

interface Plan {
  run: ImportedRun;
  array: ArrayLayout;
  /** The unit's SHA-256 from the bytes the layout scan read, when it was taken there. */
  sha256: string | null;
  /** Whether parsed parts must be checked for their depth (the file nests too deep somewhere). */
  nesting: boolean;
}

/** Null when the file is not a MechLens record with an examples list: the whole-file path's. */
function plan(fd: number, unit: SourceUnit, stat: UnitStat, batchBytes: number): Plan | null {
  const runsDir = MECHLENS_RUNS_DIR.test(unit.path);
  // Hashed as it is scanned only where it is almost surely a run file: elsewhere a large JSON
  // file may be another format's (an Inspect log), read again whole, and hashed there.
  const alone = unit.files.length === 1 && unit.files[0] === unit.path;
  const hash = runsDir && alone ? sha256OfFile(unit.path) : undefined;
  let layout;
  try {
    layout = scanJsonObject(fd, stat.size, 'examples', batchBytes, hash);
  } catch (error) {
    // Outside a runs folder a broken file may be something else: the whole-file path decides.
    if (error instanceof ImportProblem && !runsDir) return null;
    throw error;
  }
  if (!layout?.array) return null;
  const headerBytes = layout.members.reduce((sum, m) => sum + m.valueEnd - m.valueStart, 0);
  if (headerBytes > MAX_HEADER_BYTES) return null;
  const header = readHeader(fd, layout);
  header.examples = [];
  if (isInspectJsonLog(header) || !isMechlensRecord(header, unit.path)) return null;
  if (layout.array.elements > MAX_EXAMPLES_PER_RUN) throw tooManyExamples(layout.array.elements);
  const run = importMechlens(header, { path: unit.path, mtimeMs: stat.mtimeMs });
  cleanRunFields(run);
  const nesting = layout.maxDepth > MAX_JSON_DEPTH;
  return { run, array: layout.array, sha256: hash?.digest('hex') ?? null, nesting };
}

/**
 * While another worker holds the write lock, reads batches ahead (up to `limit` bytes of the
 * file) instead of waiting idle, so that two large files are parsed while the other one is
 * written. A problem in a batch read ahead fails the unit before it ever takes the lock.
 * Returns the batches read, holding the lock.
 */
async function readWhileLocked(
  store: IndexStore,
  reader: BatchReader,
  limit: number,
  begin: () => Promise<void>,
  signal: AbortSignal,
): Promise<ParsedBatch[]> {
  const ahead: ParsedBatch[] = [];
  let bytes = 0;
  while (bytes < limit && !reader.done) {
    if (store.tryBegin()) return ahead;
    const batch = reader.next()!;
    ahead.push(batch);
    bytes += batch.bytes;
    await yieldToEvents();
    if (signal.aborted) throw new CancelledError();
  }
  await begin();
  return ahead;
}

/** What a batch read ahead holds until it is written: its blocks and, last, the column store. */
function keptBytes({ prepared }: ParsedBatch): number {
  const blocks = prepared.blocks.reduce((sum, block) => sum + block.data.byteLength, 0);
  return blocks + (prepared.columns?.byteLength ?? 0);
}

/**
 * A file whose texts stay in it (located blocks, a few dozen bytes per example) is read to the
 * end before the write lock is taken, whether or not another worker holds it: the lock is then
 * held only to store bytes, never to parse. Only if the blocks grow past KEPT_MAX_BYTES (a file
 * whose texts the locator could not find, carried inline) does the rest wait for the lock.
 */
async function readBeforeLocking(
  reader: BatchReader,
  begin: () => Promise<void>,
  signal: AbortSignal,
): Promise<ParsedBatch[]> {
  const ahead: ParsedBatch[] = [];
  let kept = 0;
  while (kept < KEPT_MAX_BYTES && !reader.done) {
    const batch = reader.next()!;
    ahead.push(batch);
    kept += keptBytes(batch);
    await yieldToEvents();
    if (signal.aborted) throw new CancelledError();
  }
  await begin();
  return ahead;
}

/**
 * Writes the planned run batch by batch inside one transaction held by the caller (the batches
 * read ahead first), yielding between batches so a cancel is seen. Returns the number of
 * examples written.
 */
async function writeBatches(
  store: IndexStore,
  record: SourceRecord,
  { run, array }: Plan,
  reader: BatchReader,
  ahead: ParsedBatch[],
  signal: AbortSignal,
  onBytes: (bytesRead: number) => void,
): Promise<number> {
  const taken = store.ownedElsewhere(record.path, [run.runId]);
  if (taken.length > 0) throw new DuplicateRunIdProblem(taken);
  const sourceId = store.replaceSource(record);
  const rowid = store.insertRunRow(sourceId, record, run, array.elements);
  let written = 0;
  let columns: Uint8Array | null = null;
  for (let batch = ahead.shift() ?? reader.next(); batch; batch = ahead.shift() ?? reader.next()) {
    store.writeTexts(rowid, batch.prepared.blocks);
    columns = batch.prepared.columns ?? columns;
    written += batch.count;
    onBytes(batch.end);
    await yieldToEvents();
    if (signal.aborted) throw new CancelledError();
  }
  if (written !== array.elements) {
    throw new ImportProblem(`the examples list holds ${written} examples, not ${array.elements}`);
  }
  const warning = reader.normalization.warning();
  if (warning) store.setWarnings(rowid, [...run.warnings, warning]);
  store.writeColumns(rowid, columns ?? new RunColumnsBuilder().encode(), written);
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
    sha256 = planned.sha256 ?? (await sha256Files(unit.files, signal));
    const stamp = isLocatable(unit) ? { path: unit.path, ...stat } : null;
    const reader = new BatchReader(fd, planned.array.batches, stamp, planned.nesting);
    try {
      const ahead = stamp
        ? await readBeforeLocking(reader, begin, signal)
        : await readWhileLocked(store, reader, aheadLimit(planned.array, options), begin, signal);
      const examples = await writeBatches(store, record(), planned, reader, ahead, signal, onBytes);
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
