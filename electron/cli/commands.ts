import fs from 'node:fs';
import path from 'node:path';
import { formatCount, formatCounted } from '../../shared/format';
import type { RequestOutput } from '../../shared/contract';
import { latestVersion } from '../core/db/migrations';
import { openDatabase, type Db } from '../core/db/open';
import { PairwiseService } from '../core/service';
import { isS3Url, parseEndpoint, parseS3Url, type S3Settings } from '../core/sources/s3-location';
import { listRuns } from '../core/library';
import { defaultDbPath, packageVersion, samplesDir } from './paths';
import { progressBar } from './progress-bar';
import { tableLines } from './text-table';
import { isVerbose } from './verbosity';

export class UsageError extends Error {}

/**
 * Input that names what the library does not hold (an experiment, a pair, a criterion, a stale
 * page cursor): one line and exit 2, without the usage, which would not help.
 */
export class InputError extends Error {}

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export function openService(
  db: string | undefined,
  host: 'cli' | 'browser',
  watch = false,
  archive?: boolean,
): PairwiseService {
  return new PairwiseService({
    archive,
    dbPath: defaultDbPath(db),
    host,
    version: packageVersion(),
    samplesDir: samplesDir() ?? undefined,
    watch,
    // The browser host stays open for folders added later; a one-shot command would start
    // the index workers for nothing.
    startIndexWorkers: host === 'browser',
    verbose: isVerbose(),
  });
}

export async function indexCommand(
  paths: string[],
  opts: { db?: string; json?: boolean; endpoint?: string; archive?: boolean },
  io: Io,
): Promise<number> {
  if (paths.length === 0) throw new UsageError('index needs at least one PATH.');
  const s3 = s3Settings(paths, opts.endpoint);
  const archive = opts.archive ?? true;
  const service = openService(opts.db, 'cli', false, archive);
  const stopBar = progressBar(service.events, {
    enabled: Boolean(process.stderr.isTTY) && !opts.json,
    label: 'Indexing',
  });
  try {
    // A one-shot command leaves the library whole: searchable too, not only comparable, and
    // with its texts archived, so that it no longer reads them from the files indexed.
    const stats = await service
      .index(paths, s3)
      .then(async (indexed) => {
        await service.converted();
        await service.search.idle();
        await service.archive.idle();
        return indexed;
      })
      .finally(stopBar);
    const archived = archiveSummary(service, archive);
    const base = paths.length === 1 ? path.resolve(paths[0]!) : process.cwd();
    const relative = (p: string) => {
      if (isS3Url(p)) return p;
      const rel = path.relative(base, p);
      return rel === '' ? path.basename(p) : rel;
    };
    const problems = stats.problems
      .map((p) => ({ path: relative(p.path), message: p.message }))
      .sort((a, b) => a.path.localeCompare(b.path));
    if (opts.json) {
      io.out(JSON.stringify({ ...stats, problems, archive: archived.json }));
    } else {
      const s = stats.sources;
      io.out(
        `${formatCounted(s.scanned, 'source')}: ${formatCount(s.imported)} imported, ${formatCount(s.unchanged)} unchanged, ${formatCount(s.failed)} failed — ${formatCounted(stats.runs, 'run')}, ${formatCounted(stats.examples, 'example')}.`,
      );
      for (const p of problems) io.out(`  problem: ${p.path}: ${p.message}`);
      if (archived.text) io.out(archived.text);
    }
    const nothingDone = stats.sources.scanned > 0 && stats.sources.failed === stats.sources.scanned;
    return nothingDone ? 1 : 0;
  } finally {
    await service.close();
  }
}

/**
 * What the archive did, for the index command's output: blocks compressed and their bytes,
 * and how many blocks still read their texts from the files indexed (kept in place because
 * their source changed, or left for later with --no-archive).
 */
function archiveSummary(
  service: PairwiseService,
  archived: boolean,
): {
  json: { blocks: number; bytes: number; compressedBytes: number; inPlace: number };
  text: string | null;
} {
  const { stats } = service.archive;
  const inPlace = service.db
    .prepare(`SELECT count(*) FROM run_texts WHERE encoding = 'located'`)
    .pluck()
    .get() as number;
  const json = {
    blocks: stats.archived,
    bytes: stats.bytes,
    compressedBytes: stats.compressedBytes,
    inPlace,
  };
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const lines: string[] = [];
  if (stats.archived > 0)
    lines.push(
      `Texts archived: ${stats.archived} blocks, ${mb(stats.bytes)} → ${mb(stats.compressedBytes)}.`,
    );
  if (inPlace > 0)
    lines.push(
      archived
        ? `  ${inPlace} blocks of texts left in place: their files changed or are gone since indexing (see the log).`
        : `  ${inPlace} blocks of texts read from the files indexed until archived (index again without --no-archive, or open the library in Pairwise).`,
    );
  return { json, text: lines.length > 0 ? lines.join('\n') : null };
}

/** Object-store settings from the flags, each checked here so a typo is a usage error. */
export function s3Settings(paths: string[], endpoint: string | undefined): S3Settings {
  try {
    for (const p of paths.filter(isS3Url)) parseS3Url(p);
    return endpoint === undefined ? {} : { endpoint: parseEndpoint(endpoint) };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Read commands open the library read-only: they work on a file Pairwise may not write (a
 * read-only disk, someone else's copy) and never change it. A library from an older Pairwise
 * needs its migrations first, so it is opened as the writer.
 */
async function withReadOnly<T>(file: string | undefined, read: (db: Db) => T): Promise<T | null> {
  const dbPath = defaultDbPath(file);
  if (!fs.existsSync(dbPath)) return null;
  const db = openDatabase(dbPath, { readonly: true });
  try {
    if ((db.pragma('user_version', { simple: true }) as number) === latestVersion) return read(db);
  } finally {
    db.close();
  }
  const service = openService(file, 'cli');
  try {
    return read(service.db);
  } finally {
    await service.close();
  }
}

type RunRow = RequestOutput<'runs:list'>[number];

/** What `pairwise runs --json` prints of each run, in this order: a stable output for scripts. */
const RUN_FIELDS = [
  'run_id',
  'format',
  'project',
  'experiment_id',
  'condition',
  'role',
  'series',
  'level',
  'examples',
  'state',
  'superseded',
  'warnings',
] as const satisfies readonly (keyof RunRow)[];

type RunSummary = Pick<RunRow, (typeof RUN_FIELDS)[number]>;

export async function runsCommand(opts: { db?: string; json?: boolean }, io: Io): Promise<number> {
  const runs = ((await withReadOnly(opts.db, listRuns)) ?? []).map(
    (r) => Object.fromEntries(RUN_FIELDS.map((field) => [field, r[field]])) as RunSummary,
  );
  if (opts.json) {
    io.out(JSON.stringify(runs));
    return 0;
  }
  if (runs.length === 0) {
    io.out('No runs indexed yet. Try: pairwise index PATH');
    return 0;
  }
  io.out(
    tableLines([
      ['run', 'format', 'experiment', 'condition', 'role', 'examples', 'state'],
      ...runs.map((r) => [
        r.run_id.slice(0, 12),
        r.format,
        r.experiment_id,
        r.condition,
        r.role ?? '',
        String(r.examples),
        r.superseded ? `${r.state} (superseded)` : r.state,
      ]),
    ]).join('\n'),
  );
  return 0;
}
