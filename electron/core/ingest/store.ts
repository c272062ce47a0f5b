import { createHash } from 'node:crypto';
import type { ImportedExample, ImportedRun, JsonValue } from '../../../shared/model';
import type { Trace } from '../../../shared/trace';
import { rekeyRunColumns } from '../columns/rekey';
import { writeRunColumns } from '../columns/store';
import { packTrace } from './trace-pack';
import { exampleKey, KEY_SPAN, keySpan } from '../texts/keys';
import { writeRunTexts } from '../texts/write';
import { prepareExamples, sortedJson, type PreparedExamples } from './prepare';
import { isBusy } from '../db/busy';
import type { Db } from '../db/open';
import type { UnitStat } from './identity';
import { LockClock, type LockTimes } from './lock-clock';
import { ImportProblem } from './types';

export interface SourceRecord {
  path: string;
  folder: string | null;
  stat: UnitStat | null;
  sha256: string | null;
  importer: string | null;
  importerVersion: string | null;
}

const seedKeys = new Set(['seed', 'random_seed']);

/**
 * Our own condition identity for formats without one: the settings minus any seed
 * (docs/architecture.md, "The common model").
 */
function settingsIdentity(run: ImportedRun): string {
  const stripped: Record<string, JsonValue> = {};
  for (const [section, value] of Object.entries(run.settings)) {
    if (value === null) continue;
    const copy: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value as Record<string, JsonValue>))
      if (!seedKeys.has(k)) copy[k] = v;
    stripped[section] = copy;
  }
  return createHash('sha256').update(sortedJson(stripped)).digest('hex').slice(0, 40);
}

/** A run id that another file still on disk already gave. */
export interface TakenRunId {
  runId: string;
  path: string;
}

export function duplicateRunIdMessage(taken: TakenRunId[]): string {
  const { runId, path } = taken[0]!;
  return `run id "${runId}" is already indexed from ${path}: one run cannot come from two files (remove or rename one copy)`;
}

/** Thrown inside a unit's transaction (the streamed path) so that it rolls back. */
export class DuplicateRunIdProblem extends ImportProblem {
  constructor(readonly taken: TakenRunId[]) {
    super(duplicateRunIdMessage(taken));
  }
}

export function experimentIdOf(run: ImportedRun): string {
  return run.experiment ? run.experiment.id : `project:${run.project}`;
}

/**
 * The single writer's half of indexing. Each unit is one transaction: its old runs go, its new
 * runs come in, so a failure in one file never rolls back another, and a crash mid-way leaves
 * the previous state of that file intact.
 */
export class IndexStore {
  private readonly upsertSource;
  private readonly deleteRunsOfSource;
  private readonly upsertProject;
  private readonly upsertExperiment;
  private readonly insertRun;
  private readonly clearRunKeys;
  private readonly insertTrace;
  private readonly resetSearch;
  private readonly searchSpan;
  private readonly updateWarnings;
  private readonly sourceByPath;
  private readonly ownerOf;
  private readonly clock = new LockClock();

  constructor(private readonly db: Db) {
    this.upsertSource = db.prepare(`
      INSERT INTO sources (path, folder, size, mtime_ms, sha256, importer, importer_version, status, error, indexed_at)
      VALUES (@path, @folder, @size, @mtime_ms, @sha256, @importer, @importer_version, @status, @error, @indexed_at)
      ON CONFLICT(path) DO UPDATE SET folder = COALESCE(excluded.folder, folder), size = excluded.size,
        mtime_ms = excluded.mtime_ms, sha256 = excluded.sha256, importer = excluded.importer,
        importer_version = excluded.importer_version, status = excluded.status, error = excluded.error,
        indexed_at = excluded.indexed_at
      RETURNING id`);
    this.sourceByPath = db.prepare(`SELECT id FROM sources WHERE path = ?`);
    this.ownerOf = db.prepare(
      `SELECT s.path FROM runs r JOIN sources s ON s.id = r.source_id
       WHERE r.id = ? AND s.path <> ? AND r.missing = 0`,
    );
    this.deleteRunsOfSource = db.prepare(`DELETE FROM runs WHERE source_id = ?`);
    this.upsertProject = db.prepare(
      `INSERT INTO projects (id, name, source_format) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING`,
    );
    // An experiment met in several projects keeps the smallest: index workers store files in
    // no fixed order, and the library must not depend on it.
    this.upsertExperiment = db.prepare(`
      INSERT INTO experiments (id, project_id, name, question, claim, deviations, reproduces, declared)
      VALUES (@id, @project_id, @name, @question, @claim, @deviations, @reproduces, @declared)
      ON CONFLICT(id) DO UPDATE SET
        project_id = MIN(project_id, excluded.project_id),
        question = COALESCE(excluded.question, question), claim = COALESCE(excluded.claim, claim),
        deviations = CASE WHEN excluded.declared = 1 THEN excluded.deviations ELSE deviations END,
        reproduces = COALESCE(excluded.reproduces, reproduces),
        declared = MAX(declared, excluded.declared)`);
    this.insertRun = db.prepare(`
      INSERT INTO runs (id, source_id, experiment_id, condition_name, role, series, level, expect, compare_to,
        identity_hash, settings, format, format_version, path, started_at, finished_at, sort_time, state, seed,
        code_commit, metrics, metric_definitions, provenance, warnings, example_count, source_sha256)
      VALUES (@id, @source_id, @experiment_id, @condition_name, @role, @series, @level, @expect, @compare_to,
        @identity_hash, @settings, @format, @format_version, @path, @started_at, @finished_at, @sort_time, @state,
        @seed, @code_commit, @metrics, @metric_definitions, @provenance, @warnings, @example_count, @source_sha256)
      ON CONFLICT(id) DO UPDATE SET source_id = excluded.source_id, experiment_id = excluded.experiment_id,
        condition_name = excluded.condition_name, role = excluded.role, series = excluded.series,
        level = excluded.level, expect = excluded.expect, compare_to = excluded.compare_to,
        identity_hash = excluded.identity_hash, settings = excluded.settings, format = excluded.format,
        format_version = excluded.format_version, path = excluded.path, started_at = excluded.started_at,
        finished_at = excluded.finished_at, sort_time = excluded.sort_time, state = excluded.state,
        seed = excluded.seed, code_commit = excluded.code_commit, metrics = excluded.metrics,
        metric_definitions = excluded.metric_definitions, provenance = excluded.provenance,
        warnings = excluded.warnings, example_count = excluded.example_count,
        source_sha256 = excluded.source_sha256, missing = 0
      RETURNING rowid`);
    // A run kept its rowid (its id came back from another file): what its keys named goes.
    this.clearRunKeys = [
      db.prepare(`DELETE FROM run_texts WHERE run_rowid = ?`),
      db.prepare(`DELETE FROM examples_fts WHERE rowid BETWEEN ? AND ?`),
      db.prepare(`DELETE FROM example_traces WHERE example_rowid BETWEEN ? AND ?`),
    ] as const;
    this.insertTrace = db.prepare(
      `INSERT INTO example_traces (example_rowid, trace) VALUES (?, ?)`,
    );
    this.updateWarnings = db.prepare(`UPDATE runs SET warnings = ? WHERE rowid = ?`);
    this.resetSearch = db.prepare(
      `INSERT INTO run_search (run_rowid) VALUES (?) ON CONFLICT(run_rowid) DO UPDATE SET
         indexed_to = 0, done = 0, ready = 0,
         first_rowid = NULL, last_rowid = NULL`,
    );
    this.searchSpan = db.prepare(
      `UPDATE run_search SET first_rowid = ?, last_rowid = ? WHERE run_rowid = ?`,
    );
  }

  private source(
    record: SourceRecord,
    status: 'imported' | 'failed' | 'skipped',
    error: string | null,
  ): number {
    const row = this.upsertSource.get({
      path: record.path,
      folder: record.folder,
      size: record.stat?.size ?? null,
      mtime_ms: record.stat?.mtimeMs ?? null,
      sha256: record.sha256,
      importer: record.importer,
      importer_version: record.importerVersion,
      status,
      error,
      indexed_at: new Date().toISOString(),
    }) as { id: number };
    return row.id;
  }

  /**
   * Stores a unit's runs in one transaction, unless another file still on disk already gave one
   * of their ids (checked inside the same transaction): then nothing is written and the taken
   * ids come back.
   */
  writeImported(
    record: SourceRecord,
    runs: ImportedRun[],
    prepared: PreparedExamples[] = runs.map((run) => prepareExamples(run)),
  ): { runs: number; examples: number; taken: TakenRunId[] } {
    let examples = 0;
    let taken: TakenRunId[] = [];
    this.immediate(() => {
      taken = this.ownedElsewhere(
        record.path,
        runs.map((run) => run.runId),
      );
      if (taken.length > 0) return;
      const sourceId = this.source(record, 'imported', null);
      this.deleteRunsOfSource.run(sourceId);
      runs.forEach((run, i) => (examples += this.writeRun(sourceId, record, run, prepared[i]!)));
    });
    return { runs: taken.length > 0 ? 0 : runs.length, examples, taken };
  }

  /**
   * Run ids that another file still on disk already gave: one run cannot come from two files
   * (a copied log, say), and replacing the other silently would hide it.
   */
  ownedElsewhere(path: string, runIds: string[]): TakenRunId[] {
    return runIds.flatMap((runId) => {
      const row = this.ownerOf.get(runId, path) as { path: string } | undefined;
      return row ? [{ runId, path: row.path }] : [];
    });
  }

  /**
   * After a file was refused for run ids another file holds: the refused file's problem, and a
   * warning on each run that kept its id.
   */
  refuseDuplicates(record: SourceRecord, taken: TakenRunId[]): string {
    const message = duplicateRunIdMessage(taken);
    this.writeFailed(record, message);
    for (const other of taken)
      this.warnDuplicate(other.runId, `${record.path} holds the same run id and was not indexed`);
    return message;
  }

  private warnDuplicate(runId: string, warning: string): void {
    this.db
      .prepare(
        `UPDATE runs SET warnings = json_insert(warnings, '$[#]', @warning)
         WHERE id = @runId AND NOT EXISTS (SELECT 1 FROM json_each(runs.warnings) WHERE value = @warning)`,
      )
      .run({ runId, warning });
  }

  /** A failed re-import keeps the runs the file gave before: nothing already indexed is lost. */
  writeFailed(record: SourceRecord, message: string): void {
    this.source(record, 'failed', message);
  }

  /** Remembered so that a rescan does not parse a file we do not understand again. */
  writeSkipped(record: SourceRecord): void {
    this.immediate(() => {
      const sourceId = this.source(record, 'skipped', null);
      this.deleteRunsOfSource.run(sourceId);
    });
  }

  /** A write transaction, timed from taking the lock to the end of its commit. */
  private immediate(work: () => void): void {
    try {
      this.db
        .transaction(() => {
          this.clock.locked();
          work();
          this.clock.committing();
        })
        .immediate();
    } finally {
      this.clock.unlocked();
    }
  }

  /** How long this connection held the write lock since the last call, and committed. */
  lockTimes(): LockTimes {
    return this.clock.take();
  }

  forget(path: string): void {
    const row = this.sourceByPath.get(path) as { id: number } | undefined;
    if (!row) return;
    this.db.transaction(() => {
      this.db.prepare(`UPDATE runs SET missing = 1 WHERE source_id = ?`).run(row.id);
      this.db
        .prepare(`UPDATE sources SET status = 'missing', error = NULL WHERE id = ?`)
        .run(row.id);
    })();
  }

  private writeRun(
    sourceId: number,
    record: SourceRecord,
    run: ImportedRun,
    prepared: PreparedExamples,
  ): number {
    const rowid = this.insertRunRow(sourceId, record, run, run.examples.length);
    this.writeTexts(rowid, prepared.blocks);
    if (run.traces) this.writeTraces(rowid, run.examples, run.traces);
    this.writeColumns(rowid, prepared.columns!, run.examples.length);
    return run.examples.length;
  }

  /**
   * The parts of a unit's transaction, for a run written in batches as a large file is read
   * (stream-unit.ts): the caller holds the transaction, as writeImported does for a whole run.
   */
  begin(): void {
    this.db.exec('BEGIN IMMEDIATE');
    this.clock.locked();
  }

  /** Takes the write lock if it is free, without waiting: false when another writer holds it. */
  tryBegin(): boolean {
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      this.begin();
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  commit(): void {
    this.clock.committing();
    this.db.exec('COMMIT');
    this.clock.unlocked();
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.clock.unlocked();
  }

  replaceSource(record: SourceRecord): number {
    const sourceId = this.source(record, 'imported', null);
    this.deleteRunsOfSource.run(sourceId);
    return sourceId;
  }

  insertRunRow(
    sourceId: number,
    record: SourceRecord,
    run: ImportedRun,
    exampleCount: number,
  ): number {
    const experimentId = experimentIdOf(run);
    this.upsertProject.run(run.project, run.project, run.format);
    this.upsertExperiment.run({
      id: experimentId,
      project_id: run.project,
      name: run.experiment?.name ?? run.project,
      question: run.experiment?.question ?? null,
      claim: run.experiment?.claim ?? null,
      deviations: JSON.stringify(run.experiment?.deviations ?? []),
      reproduces: run.experiment?.reproduces ? JSON.stringify(run.experiment.reproduces) : null,
      declared: run.experiment ? 1 : 0,
    });
    const { rowid } = this.insertRun.get({
      id: run.runId,
      source_id: sourceId,
      experiment_id: experimentId,
      condition_name: run.condition.name,
      role: run.condition.role,
      series: run.condition.series,
      level: run.condition.level,
      expect: JSON.stringify(run.condition.expect),
      compare_to: JSON.stringify(run.condition.compareTo),
      identity_hash: run.condition.identityHash ?? settingsIdentity(run),
      settings: JSON.stringify(run.settings),
      format: run.format,
      format_version: run.formatVersion,
      path: record.path,
      started_at: run.startedAt,
      finished_at: run.finishedAt,
      sort_time:
        run.finishedAt ?? (record.stat ? new Date(record.stat.mtimeMs).toISOString() : null),
      state: run.state,
      seed: run.seed,
      code_commit: run.codeCommit,
      metrics: JSON.stringify(run.metrics),
      metric_definitions: JSON.stringify(run.metricDefinitions),
      provenance: JSON.stringify(run.provenance),
      warnings: JSON.stringify(run.warnings),
      example_count: exampleCount,
      source_sha256: record.sha256,
    }) as { rowid: number };
    const [texts, fts, traces] = this.clearRunKeys;
    texts.run(rowid);
    const keys = keySpan(rowid, KEY_SPAN)!;
    fts.run(keys.first, keys.last);
    traces.run(keys.first, keys.last);
    // Its words are indexed after the commit (search/indexer.ts): until then it is not searchable.
    this.resetSearch.run(rowid);
    return rowid;
  }

  /** A batch of the run's text blocks (texts/write.ts). */
  writeTexts(rowid: number, blocks: PreparedExamples['blocks']): void {
    writeRunTexts(this.db, rowid, blocks);
  }

  /** The run's transcripts, each under its example's key. */
  private writeTraces(rowid: number, examples: ImportedExample[], traces: Map<string, Trace>) {
    examples.forEach((example, i) => {
      const trace = traces.get(example.id);
      if (trace) this.insertTrace.run(exampleKey(rowid, i), packTrace(trace));
    });
  }

  /**
   * The run's column store (built in the worker with ordinals for rowids, made keys here), in
   * the same transaction as its texts, and its key span, which the background search fill walks.
   */
  writeColumns(rowid: number, columns: Uint8Array, examples: number): void {
    // From an import worker the bytes arrive as a Uint8Array.
    const bytes = Buffer.from(columns.buffer, columns.byteOffset, columns.byteLength);
    rekeyRunColumns(bytes, rowid);
    writeRunColumns(this.db, rowid, bytes);
    const span = keySpan(rowid, examples);
    this.searchSpan.run(span?.first ?? null, span?.last ?? null, rowid);
  }

  setWarnings(rowid: number, warnings: string[]): void {
    this.updateWarnings.run(JSON.stringify(warnings), rowid);
  }
}
