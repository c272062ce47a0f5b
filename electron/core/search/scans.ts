import type { Db } from '../db/open';
import { WorkerPool } from '../jobs/pool';
import { workerEntry } from '../jobs/worker-path';

/** What the search worker gets to scan one run's texts for a search's words. */
export interface ScanTask {
  kind: 'scan';
  dbPath: string;
  run: number;
  words: string[];
}

/** A scan's answer: the run's matches by ordinal, or null when the search cannot be scanned. */
export type ScanResult = Uint8Array | null;

/**
 * One scan as the service keeps it: running, done (its matches), or given up (the search
 * cannot be scanned, or the scan failed): that run waits for the fill, as before scans.
 */
type Scan =
  | {
      state: 'running';
      generation: string;
      run: number;
      words: string[];
      stop: AbortController;
      since: number;
    }
  | { state: 'done'; generation: string; hits: Uint8Array }
  | { state: 'given-up'; generation: string };

/** Scans kept: a search typed word by word asks a few, each a byte per example of a run. */
const SCANS_KEPT = 16;
/**
 * How long a running scan holds the fill back (`busy`): past it the fill goes on whatever the
 * scan does, so a scan that never ends cannot stop the index.
 */
const HOLDS_FILL_MS = 30_000;
/** One run per worker: a pair's two runs are scanned at once on two cores. */
const SCAN_WORKERS = 2;

const registry = new WeakMap<Db, SearchScans>();

/** The scans of this connection's library, if its service has any. */
export function scansOf(db: Db): SearchScans | undefined {
  return registry.get(db);
}

/**
 * What the run's texts are as of now: a re-index of the run (a new source, or the same one
 * imported by a new importer) changes it, and a scan made before answers no more.
 */
function generationOf(db: Db, run: number): string {
  const row = db
    .prepare(
      `SELECT r.source_sha256 AS sha, r.example_count AS n, s.importer_version AS importer,
         s.mtime_ms AS mtime, q.first_rowid AS first
       FROM runs r LEFT JOIN sources s ON s.id = r.source_id
       LEFT JOIN run_search q ON q.run_rowid = r.rowid WHERE r.rowid = ?`,
    )
    .get(run);
  return JSON.stringify(row ?? null);
}

/**
 * Answers a search over runs not yet in the full-text index by scanning their texts in
 * worker threads (scan.ts), with the index's own semantics, so the first search on a large
 * library need not wait for the fill. The service's thread only starts scans and keeps their
 * answers; the explorer asks again while they run, as it does while the fill runs.
 */
export class SearchScans {
  private pool: WorkerPool | null = null;
  /** By run and words, the last asked for last. */
  private readonly scans = new Map<string, Scan>();
  private closed = false;

  constructor(private readonly db: Db) {
    registry.set(db, this);
  }

  private key(run: number, words: string[]): string {
    return JSON.stringify([run, words]);
  }

  /**
   * Whether every one of these runs has a finished scan for these words; starts those that
   * have none (or one made before the run changed).
   */
  answered(runs: number[], words: string[]): boolean {
    this.stopOthers(runs, words);
    let all = true;
    for (const run of runs) {
      const generation = generationOf(this.db, run);
      const key = this.key(run, words);
      let scan = this.scans.get(key);
      if (scan?.generation !== generation) scan = this.start(run, words, generation);
      this.keep(key, scan);
      if (scan.state !== 'done') all = false;
    }
    return all;
  }

  /** A finished scan's matches for a run as it is now, by ordinal; null when there is none. */
  hits(run: number, words: string[]): Uint8Array | null {
    const scan = this.scans.get(this.key(run, words));
    if (scan?.state !== 'done' || scan.generation !== generationOf(this.db, run)) return null;
    return scan.hits;
  }

  /**
   * Stops the scans of these runs for other words: a search typed letter by letter asks for
   * each prefix in turn, and the last one should not wait behind the others in the workers.
   */
  private stopOthers(runs: number[], words: string[]): void {
    const asked = JSON.stringify(words);
    for (const [key, scan] of this.scans)
      if (
        scan.state === 'running' &&
        runs.includes(scan.run) &&
        JSON.stringify(scan.words) !== asked
      ) {
        this.scans.delete(key);
        scan.stop.abort();
      }
  }

  private keep(key: string, scan: Scan): void {
    this.scans.delete(key);
    this.scans.set(key, scan);
    if (this.scans.size > SCANS_KEPT) this.scans.delete(this.scans.keys().next().value!);
  }

  /**
   * Whether a scan is running, for the fill to wait: a search is waiting for it, and on two
   * cores the fill's worker would take a third of them.
   */
  busy(): boolean {
    const now = performance.now();
    for (const scan of this.scans.values())
      if (scan.state === 'running' && now - scan.since < HOLDS_FILL_MS) return true;
    return false;
  }

  /** Starts the workers before a search needs them, so the first one spares their start-up. */
  warm(): void {
    if (!this.closed) this.workers().warm();
  }

  async close(): Promise<void> {
    this.closed = true;
    registry.delete(this.db);
    await this.pool?.close();
  }

  private workers(): WorkerPool {
    this.pool ??= new WorkerPool(workerEntry('search'), SCAN_WORKERS);
    return this.pool;
  }

  private start(run: number, words: string[], generation: string): Scan {
    if (this.closed) return { state: 'given-up', generation };
    const stop = new AbortController();
    const scan: Scan = { state: 'running', generation, run, words, stop, since: performance.now() };
    const task: ScanTask = { kind: 'scan', dbPath: this.db.name, run, words };
    const key = this.key(run, words);
    const settle = (next: Scan) => {
      // Kept only if it is still the scan asked for: the run may have changed meanwhile.
      if (this.scans.get(key) === scan) this.scans.set(key, next);
    };
    this.workers()
      .run<ScanResult>(task, { signal: stop.signal })
      .then(
        (hits) =>
          settle(hits ? { state: 'done', generation, hits } : { state: 'given-up', generation }),
        // A stopped scan was dropped already: asked again, it starts over.
        () => settle({ state: 'given-up', generation }),
      );
    return scan;
  }
}
