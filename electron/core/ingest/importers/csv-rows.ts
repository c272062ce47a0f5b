import fs from 'node:fs';
import { pipeline, Transform } from 'node:stream';
import { parse, type CsvError, type Info, type Options } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { firstInvalidUtf8, fsProblem } from '../read';
import { ImportProblem } from '../types';

/** A CSV row with the line it starts on (a quoted cell may span lines). */
export interface CsvRow {
  cells: string[];
  line: number;
}

/**
 * RFC 4180 as spreadsheets write it: any of CRLF, LF or CR ends a row, a BOM is dropped, blank
 * lines are not rows, a quote inside an unquoted cell is a literal quote, and rows may have any
 * number of cells (the importer says which row is short, with its line).
 */
const OPTIONS: Options = {
  bom: true,
  info: true,
  record_delimiter: ['\r\n', '\n', '\r'],
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
};

interface Parsed {
  record: string[];
  info: Info;
}

/** Turns csv-parse's end-of-record counters into each row's first line. */
function lineTracker(): (info: Info) => number {
  let lines = 0;
  let empty = 0;
  return (info) => {
    const start = lines + (info.empty_lines - empty) + 1;
    lines = info.lines;
    empty = info.empty_lines;
    return start;
  };
}

function problemOf(error: unknown): unknown {
  if (error instanceof ImportProblem) return error;
  const csv = error as Partial<CsvError> & { lines?: number };
  const fromParser =
    typeof csv.code === 'string' && (csv.code.startsWith('CSV_') || csv.code.startsWith('INVALID'));
  // File-system errors become problems; aborts and bugs pass through.
  if (!fromParser) return fsProblem(error);
  const at = csv.lines ? `line ${csv.lines.toLocaleString('en-US')}` : 'the file';
  if (csv.code === 'CSV_QUOTE_NOT_CLOSED')
    return new ImportProblem(`${at}: a quoted cell is never closed (the file ends inside it)`);
  return new ImportProblem(`${at}: ${csv.message ?? 'not valid CSV'}`);
}

/** Every row of a CSV text (exports, headers, tests). */
export function parseCsv(text: string): CsvRow[] {
  const start = lineTracker();
  try {
    return (parseSync(text, OPTIONS) as unknown as Parsed[]).map(({ record, info }) => ({
      cells: record,
      line: start(info),
    }));
  } catch (error) {
    throw problemOf(error);
  }
}

/**
 * Passes the bytes on unchanged, refusing the first malformed UTF-8 sequence (a decoder would
 * put U+FFFD in its place and the cell would silently change).
 */
function utf8Check(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        const bad = offset + Math.max(0, firstInvalidUtf8(chunk));
        done(
          new ImportProblem(
            `not valid UTF-8 text (first bad byte near offset ${bad.toLocaleString('en-US')})`,
          ),
        );
        return;
      }
      offset += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      try {
        decoder.decode();
        done();
      } catch {
        done(new ImportProblem('not valid UTF-8 text (the file ends inside a character)'));
      }
    },
  });
}

/** The rows of a CSV file, read in 1 MB chunks: the file is never held whole in memory. */
export async function* csvFileRows(
  file: string,
  opts: { signal: AbortSignal; onBytes?: (bytes: number) => void },
): AsyncGenerator<CsvRow> {
  const start = lineTracker();
  const stream = fs.createReadStream(file, { highWaterMark: 1 << 20, signal: opts.signal });
  let bytesRead = 0;
  stream.on('data', (chunk) => {
    bytesRead += chunk.length;
    opts.onBytes?.(bytesRead);
  });
  // pipeline() passes an error from any stage (a read error, a cancel, bad UTF-8) to the end.
  const parser = pipeline(stream, utf8Check(), parse(OPTIONS), () => undefined);
  try {
    for await (const { record, info } of parser as AsyncIterable<Parsed>)
      yield { cells: record, line: start(info) };
  } catch (error) {
    throw problemOf(error);
  } finally {
    stream.destroy();
  }
}
