import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { JsonObject } from '../../../shared/model';
import { partialRow, type BlockRows, type PartialRow, type TextInput, type Wanted } from './blocks';

/**
 * The archive's form of a block: its examples' inputs, their outputs and the rest of each
 * (fields, target, error) compressed apart, each row's JSON on a line of its own. An explorer page
 * wants one row's fields and one side's input from each of a few hundred blocks: it inflates
 * the rest section (small) and the inputs, never the outputs (most of the bytes), and parses
 * only the rows it shows.
 */
export const SECTIONS = 'sections';

/** "PWT1": a version for the layout below, checked so that other bytes are never misread. */
const MAGIC = 0x31545750;
/** Magic, row count, then each section's compressed length, in `PARTS` order. */
const HEAD_BYTES = 8 + 4 * 3;
const PARTS = ['rest', 'input', 'output'] as const;
const NEWLINE = 0x0a;
export type Part = (typeof PARTS)[number];

/**
 * Level 2, as the whole-block archive used: on generated texts ~3× faster than level 6 for a
 * sixth more bytes, on real tool logs 2.4× faster for a seventh more (see docs/architecture.md).
 */
const LEVEL = 2;

/**
 * One section before compression: each row's JSON followed by a newline. JSON as written here
 * never holds a raw newline (strings escape it), so the newlines mark the rows: a table of
 * offsets, rising numbers that deflate poorly, took ~5% more bytes on real tool logs.
 */
function sectionText(json: readonly string[]): Buffer {
  for (const j of json)
    if (j.includes('\n')) throw new Error('A row of a block holds a raw newline in its JSON.');
  return Buffer.from(json.map((j) => `${j}\n`).join(''), 'utf8');
}

/**
 * The block's examples in the sections layout (fields are sorted-key JSON text already), and
 * the bytes its sections held before compression.
 */
export function encodeSectionsBlock(rows: readonly TextInput[]): { data: Buffer; bytes: number } {
  const parts: Record<Part, Buffer> = {
    rest: sectionText(
      rows.map((r) => `[${r.fields},${JSON.stringify(r.target)},${JSON.stringify(r.error)}]`),
    ),
    input: sectionText(rows.map((r) => JSON.stringify(r.input))),
    output: sectionText(rows.map((r) => JSON.stringify(r.output))),
  };
  const compressed = PARTS.map((p) => deflateRawSync(parts[p], { level: LEVEL }));
  const head = Buffer.allocUnsafe(HEAD_BYTES);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(rows.length, 4);
  compressed.forEach((c, i) => head.writeUInt32LE(c.length, 8 + 4 * i));
  return {
    data: Buffer.concat([head, ...compressed]),
    bytes: PARTS.reduce((sum, p) => sum + parts[p].length, 0),
  };
}

/** The bytes a reader asks for first to learn where a sections block's sections lie. */
export const SECTIONS_HEAD_BYTES = HEAD_BYTES;

/**
 * How many bytes from its start a sections block needs for the sections before `part`, by its
 * head (its first SECTIONS_HEAD_BYTES bytes): before the outputs (the last and most of its
 * bytes), or before the inputs too (most of the rest). A block cut there reads as the whole one
 * for every row wanted without that section and those after it.
 */
export function bytesBefore(head: Buffer, part: Part): number {
  sectionsLength(head);
  let at = HEAD_BYTES;
  for (let p = 0; PARTS[p] !== part; p++) at += head.readUInt32LE(8 + 4 * p);
  return at;
}

/** A section inflated: each row's JSON on a line, and where each line starts (and the last ends). */
export interface SectionText {
  text: Buffer;
  starts: Uint32Array;
}

/** How many rows a sections block holds; throws on bytes in another layout. */
export function sectionsLength(data: Buffer): number {
  if (data.byteLength < HEAD_BYTES || data.readUInt32LE(0) !== MAGIC)
    throw new Error('A block of texts is stored in a layout this version cannot read.');
  return data.readUInt32LE(4);
}

/**
 * One section of a sections block, inflated alone: the others' bytes are only skipped.
 * `chunkSize` is zlib's output buffer: a section larger than it is gathered from several and
 * copied once more.
 */
export function inflateSection(data: Buffer, part: Part, chunkSize?: number): SectionText {
  const rows = sectionsLength(data);
  let at = HEAD_BYTES;
  for (let p = 0; PARTS[p] !== part; p++) at += data.readUInt32LE(8 + 4 * p);
  const length = data.readUInt32LE(8 + 4 * PARTS.indexOf(part));
  const text = inflateRawSync(data.subarray(at, at + length), { chunkSize });
  const starts = new Uint32Array(rows + 1);
  for (let row = 0, from = 0; row < rows; row++) {
    const end = text.indexOf(NEWLINE, from);
    if (end < 0) throw new Error('A block of texts is damaged: a section ends early.');
    from = end + 1;
    starts[row + 1] = from;
  }
  // Readers map a byte to its row by these starts: bytes past the last row would be no row's.
  if (starts[rows] !== text.length)
    throw new Error('A block of texts is damaged: a section holds more than its rows.');
  return { text, starts };
}

/**
 * A sections block read lazily: a section is inflated the first time one of its rows is asked
 * for, and a row's JSON is parsed only when asked for.
 */
export class SectionsBlock implements BlockRows {
  readonly length: number;
  /** Each inflated section, with where each row's JSON starts (and the last one ends). */
  private readonly sections = new Map<Part, SectionText>();

  constructor(private readonly data: Buffer) {
    this.length = sectionsLength(data);
  }

  private section(part: Part): SectionText {
    let section = this.sections.get(part);
    if (!section) this.sections.set(part, (section = inflateSection(this.data, part)));
    return section;
  }

  private json(part: Part, i: number): unknown {
    const { text, starts } = this.section(part);
    return JSON.parse(text.toString('utf8', starts[i], starts[i + 1]! - 1));
  }

  rows(indices: readonly number[], want: Wanted): PartialRow[] {
    return indices.map((i) => {
      const [fields, target, error] = this.json('rest', i) as [
        JsonObject,
        string | null,
        string | null,
      ];
      return partialRow(
        want,
        {
          input: () => this.json('input', i) as string,
          output: () => this.json('output', i) as string,
        },
        { fields, target, error, unavailable: null },
      );
    });
  }
}
