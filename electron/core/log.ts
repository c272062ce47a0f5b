import fs from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import pino, { type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';

export type { Logger };

export interface LogOptions {
  /** The data folder: the log lives in `<dataDir>/pairwise-logs/pairwise.log` (not `logs/`, which is where Inspect writes its logs). */
  dataDir: string;
  /** Also write every entry, debug included, to stderr (the CLI's --verbose). */
  verbose?: boolean;
}

/** Where a library's log is written, for the README and bug reports. */
export function logFile(dataDir: string): string {
  return path.join(dataDir, 'pairwise-logs', 'pairwise.log');
}

/** A log with its file open: `close()` writes what is pending and lets the file go. */
export interface OpenLog {
  logger: Logger;
  close(): Promise<void>;
}

/**
 * The core's log: JSON lines a bug report can carry, in a file that rotates at 5 MB and keeps
 * five (about 25 MB at most). Written in-process (no transport thread), so it works the same
 * in the CLI, the browser host and the desktop app's core worker.
 */
export function openLog(options: LogOptions): OpenLog {
  const file = logFile(options.dataDir);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch {
    // Read-only data folder: the stream's error handler below keeps the app running.
  }
  const stream = createStream(path.basename(file), {
    path: path.dirname(file),
    size: '5M',
    maxFiles: 5,
  });
  // A log that cannot be written (a read-only data folder) must never stop the app.
  stream.on('error', () => undefined);
  const targets: pino.StreamEntry[] = [{ stream, level: 'info' }];
  if (options.verbose) targets.push({ stream: process.stderr, level: 'debug' });
  const logger = pino(
    { level: options.verbose ? 'debug' : 'info', base: { pid: process.pid } },
    pino.multistream(targets),
  );
  return {
    logger,
    close: async () => {
      // The stream holds the file through a FileHandle that only ending it closes; left open,
      // each library opened in one process keeps a descriptor until the garbage collector.
      stream.end();
      await finished(stream).catch(() => undefined);
    },
  };
}

/** For tests and one-off tools: a logger that writes nothing. */
export function silentLog(): Logger {
  return pino({ level: 'silent' });
}
