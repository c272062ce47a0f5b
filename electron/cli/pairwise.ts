import { parseArgs } from 'node:util';
import { describeDbError } from '../core/db/errors';
import { setWorkerDir } from '../core/jobs/worker-path';
import { compareCommand } from './compare';
import { indexCommand, InputError, runsCommand, UsageError, type Io } from './commands';
import { examplesCommand } from './examples';
import { exportParquetCommand } from './parquet';
import { defaultDbPath, packageVersion } from './paths';
import { serveMain } from './serve';
import { forTerminal } from './terminal-text';
import { syncCommand } from './sync';
import { usage } from './usage';
import { takeVerboseFlag } from './verbosity';

const io: Io = {
  out: (text) => process.stdout.write(forTerminal(text) + '\n'),
  err: (text) => process.stderr.write(forTerminal(text) + '\n'),
};

/** The --db a command was given, to name the file in a storage error. */
function dbFlag(args: string[]): string | undefined {
  const inline = args.find((a) => a.startsWith('--db='));
  if (inline) return inline.slice('--db='.length);
  const at = args.indexOf('--db');
  return at >= 0 ? args[at + 1] : undefined;
}

type Command = (args: string[]) => Promise<number>;

/** Each command parses its own flags (strictly: an unknown flag is a usage error). */
const commands: Record<string, Command> = {
  serve: (args) => serveMain(args, io),
  index: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      options: {
        db: { type: 'string' },
        json: { type: 'boolean' },
        endpoint: { type: 'string' },
        'no-archive': { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    return indexCommand(positionals, { ...values, archive: !values['no-archive'] }, io);
  },
  runs: async (args) => {
    const { values } = parseArgs({
      args,
      options: { db: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
    });
    return runsCommand(values, io);
  },
  compare: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      options: {
        db: { type: 'string' },
        experiment: { type: 'string' },
        reference: { type: 'string' },
        baseline: { type: 'string' },
        candidate: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
        resamples: { type: 'string' },
        engine: { type: 'string' },
        parquet: { type: 'string' },
        endpoint: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    return compareCommand(positionals, values, io);
  },
  export: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      options: {
        db: { type: 'string' },
        experiment: { type: 'string', multiple: true },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    return exportParquetCommand(positionals, values, io);
  },
  examples: async (args) => {
    const { values } = parseArgs({
      args,
      options: {
        db: { type: 'string' },
        experiment: { type: 'string' },
        pair: { type: 'string' },
        search: { type: 'string' },
        filter: { type: 'string', multiple: true },
        'output-changed': { type: 'string' },
        'behaviour-changed': { type: 'string' },
        side: { type: 'string' },
        'input-mismatch': { type: 'boolean' },
        sort: { type: 'string' },
        desc: { type: 'boolean' },
        limit: { type: 'string' },
        after: { type: 'string' },
        count: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      strict: true,
    });
    return examplesCommand(values, io);
  },
  sync: async (args) => {
    const { values } = parseArgs({
      args,
      options: { db: { type: 'string' }, 'dry-run': { type: 'boolean' } },
      strict: true,
    });
    return syncCommand(values, io);
  },
};

/**
 * A usage error prints the usage (exit 2), an input the library does not hold one line (exit 2);
 * anything else one line, a storage error explained (exit 1).
 */
function reportFailure(error: unknown, args: string[]): number {
  if (error instanceof InputError) {
    io.err(`pairwise: ${error.message}`);
    return 2;
  }
  if (
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    io.err(`pairwise: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const described = describeDbError(error, defaultDbPath(dbFlag(args)));
  io.err(`pairwise: ${described ?? (error instanceof Error ? error.message : String(error))}`);
  return 1;
}

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = takeVerboseFlag(args);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(usage);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    io.out(packageVersion());
    return 0;
  }
  try {
    const run = Object.hasOwn(commands, command) ? commands[command] : undefined;
    if (!run) throw new UsageError(`Unknown command "${command}".`);
    return await run(rest);
  } catch (error) {
    return reportFailure(error, rest);
  }
}

/**
 * Exits once stdout and stderr are written out. A pipe to a slower reader (`| jq`, a test
 * harness) holds at most 64 KB: the rest of a report waits in Node's buffer, and exiting at once
 * would cut it off there.
 */
function exitWhenFlushed(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

if (require.main === module || process.env.PAIRWISE_CLI_MAIN === '1') {
  setWorkerDir(__dirname);
  main(process.argv.slice(2)).then(exitWhenFlushed, (error: unknown) => {
    io.err(`pairwise: ${String(error)}`);
    exitWhenFlushed(1);
  });
}
