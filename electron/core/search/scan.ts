import fs from 'node:fs';
import type { Db } from '../db/open';
import { CancelledError } from '../jobs/protocol';
import { BLOCK_SIZE, wholeRows, type BlockEncoding } from '../texts/blocks';
import { exampleKey } from '../texts/keys';
import { LOCATED, openTextBlock, SourceFiles } from '../texts/located';
import { TextReader } from '../texts/read';
import { SECTIONS } from '../texts/sections';
import { LocatedTexts, readLocatedRefs, type BlockHead, type Ref } from './located-refs';
import { MAX_ROW_SPAN, scanLiterals, type FileRows } from './scan-located';
import { ScanState, WholeRows } from './scan-rows';
import { SectionsScan } from './scan-sections';
import { foldWords, prefixQuery } from './terms';

/** A located block as the indexer wrote it (texts/located.ts). */
interface LocatedBlockJson extends BlockHead {
  rows: [Ref, Ref, ...unknown[]][];
}

/** Keys read back through the reader at once. */
const READ_BATCH = 4096;

/**
 * The search's words as FTS5 folds them, one term each; [] when none is left (the search
 * matches nothing); null when a word is cut into several terms, a phrase the index refuses:
 * the scan does not answer what the index would fail on.
 */
export function scanTerms(db: Db, words: string[]): string[] | null {
  const folded = foldWords(db, words);
  if (folded.some((terms) => terms.length > 1)) return null;
  return folded.flat();
}

/**
 * The examples of a run not yet in the full-text index that a search matches, one byte per
 * ordinal: exactly those the index will give once filled (see docs/search.md). Texts still
 * in their source file are scanned there, a chunk at a time (scan-located.ts), and those the
 * archive stored in sections in their sections (scan-sections.ts); older archived blocks, and
 * texts past ASCII, are read whole as the fill reads them and decided by the rules of
 * ascii-words.ts or by FTS5 itself. Null when the search cannot be scanned.
 */
export function scanRun(
  db: Db,
  runRowid: number,
  words: string[],
  signal?: AbortSignal,
): Uint8Array | null {
  const terms = scanTerms(db, words);
  // A run still in example rows waits for its conversion (texts/convert.ts), as the fill does.
  const inRows = db.prepare(`SELECT 1 FROM examples WHERE run_rowid = ? LIMIT 1`).get(runRowid);
  if (terms === null || inRows !== undefined) return null;
  const examples = db
    .prepare(`SELECT example_count FROM runs WHERE rowid = ?`)
    .pluck()
    .get(runRowid) as number | undefined;
  const state = new ScanState(examples ?? 0, terms);
  if (terms.length === 0 || state.examples === 0) return state.hits;
  const between = () => {
    if (signal?.aborted) throw new CancelledError();
  };
  const whole = new WholeRows(db, state, prefixQuery(words));
  const sections = new SectionsScan(state, whole);
  const located = new LocatedTexts(state.examples);
  const left: number[] = [];
  const byFile = new Map<string, FileRows>();
  const files = new SourceFiles();
  const blocks = db
    .prepare(`SELECT block, encoding, data FROM run_texts WHERE run_rowid = ? ORDER BY block`)
    .iterate(runRowid) as IterableIterator<{
    block: number;
    encoding: BlockEncoding;
    data: Buffer;
  }>;
  for (const { block, encoding, data } of blocks) {
    between();
    const first = block * BLOCK_SIZE;
    if (encoding === SECTIONS) {
      sections.block(data, first);
      continue;
    }
    if (encoding !== LOCATED) {
      wholeRows(openTextBlock(encoding, data, files)).forEach((row, i) => {
        if (!row.unavailable) whole.add(first + i, row.input, row.output);
      });
      continue;
    }
    sortLocated(readBlock(data, first, located), first, files, located, byFile, left);
  }
  for (const [path, rows] of byFile)
    scanFile(path, inFileOrder(rows), located, state, left, between);
  readWhole(db, runRowid, left, whole, between);
  whole.flush();
  return state.hits;
}

/** A located block's refs into `located`, its header, and how many rows it holds. */
function readBlock(
  data: Buffer,
  first: number,
  located: LocatedTexts,
): { head: BlockHead; rows: number } {
  const read = readLocatedRefs(data, first, located);
  if (read) return read;
  const { rows, ...head } = JSON.parse(data.toString('utf8')) as LocatedBlockJson;
  rows.forEach(([input, output], i) => {
    located.set(2 * (first + i), input);
    located.set(2 * (first + i) + 1, output);
  });
  return { head, rows: rows.length };
}

/**
 * A located block's rows: those with a located text go to their file's scan, unless the file
 * changed (then, as for the fill, they have no text: they match nothing); those all inline,
 * or whose literals lie far apart, are read whole.
 */
function sortLocated(
  block: { head: BlockHead; rows: number },
  first: number,
  files: SourceFiles,
  located: LocatedTexts,
  byFile: Map<string, FileRows>,
  left: number[],
): void {
  const { head } = block;
  const stamp = files.stamp(head.path);
  const readable = stamp !== null && stamp.size === head.size && stamp.mtimeMs === head.mtimeMs;
  let rows = byFile.get(head.path);
  if (!rows) byFile.set(head.path, (rows = { ordinals: [], lo: [], hi: [] }));
  const { start, end } = located;
  for (let ordinal = first; ordinal < first + block.rows; ordinal++) {
    const input = 2 * ordinal;
    const output = input + 1;
    const both = located.located(input) && located.located(output);
    const one = located.located(input) ? input : located.located(output) ? output : -1;
    if (one < 0) left.push(ordinal);
    if (one < 0 || !readable) continue;
    const lo = both ? Math.min(start[input]!, start[output]!) : start[one]!;
    const hi = both ? Math.max(end[input]!, end[output]!) : end[one]!;
    if (hi - lo > MAX_ROW_SPAN) left.push(ordinal);
    else {
      rows.ordinals.push(ordinal);
      rows.lo.push(lo);
      rows.hi.push(hi);
    }
  }
}

/** The rows by where they begin in the file: as they are already, for every format we read. */
function inFileOrder(rows: FileRows): FileRows {
  let sorted = true;
  for (let i = 1; i < rows.lo.length && sorted; i++) sorted = rows.lo[i - 1]! <= rows.lo[i]!;
  if (sorted) return rows;
  const order = rows.lo.map((_, i) => i).sort((a, b) => rows.lo[a]! - rows.lo[b]!);
  return {
    ordinals: order.map((i) => rows.ordinals[i]!),
    lo: order.map((i) => rows.lo[i]!),
    hi: order.map((i) => rows.hi[i]!),
  };
}

function scanFile(
  path: string,
  rows: FileRows,
  located: LocatedTexts,
  state: ScanState,
  left: number[],
  between: () => void,
): void {
  if (rows.ordinals.length === 0) return;
  let fd: number;
  try {
    fd = fs.openSync(path, 'r');
  } catch {
    // Gone since it was stat'ed: its texts cannot be read, by the fill either.
    return;
  }
  try {
    scanLiterals(fd, rows, located, state, left, between);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads these examples whole, checked as the fill reads them, and decides each. */
function readWhole(
  db: Db,
  runRowid: number,
  ordinals: number[],
  whole: WholeRows,
  between: () => void,
): void {
  const reader = new TextReader(db);
  for (let i = 0; i < ordinals.length; i += READ_BATCH) {
    between();
    const keys = ordinals.slice(i, i + READ_BATCH).map((o) => exampleKey(runRowid, o));
    for (const [key, row] of reader.texts(keys))
      if (!row.unavailable) whole.add(key - exampleKey(runRowid, 0), row.input, row.output);
  }
}
