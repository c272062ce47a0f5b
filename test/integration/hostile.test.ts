import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/core/db/open';
import { indexUnit, type IndexTask } from '../../electron/core/ingest/index-unit';
import { indexPaths } from '../../electron/core/ingest/indexer';
import { IndexStore } from '../../electron/core/ingest/store';
import { WorkerPool } from '../../electron/core/jobs/pool';
import { WorkerStartError } from '../../electron/core/jobs/protocol';
import {
  examples,
  writeGenericCsv,
  writeGenericJsonl,
  writeLmEval,
  writeMechlensRun,
  writePromptfoo,
} from '../fixtures/formats';
import { writeHostileCorpus, type HostileEntry } from '../fixtures/hostile-corpus';
import { writeEvalLog, evalSample } from '../fixtures/inspect';
import { writeRepsRun } from '../fixtures/reps';
import { tempDir } from '../fixtures/tmp';
import { storedExampleCount, storedExamples } from '../fixtures/stored-examples';

/**
 * Issue 7: a library full of hostile files is indexed through the CLI, as a user would. The
 * large corpus (ten million examples, a 2 GiB sparse file, a 400 MB array bomb) runs only
 * under `npm run fuzz` (PAIRWISE_FUZZ_LARGE=1).
 */

const root = path.resolve(__dirname, '../..');
const entry = path.join(root, 'electron/cli/pairwise.ts');
const LARGE = process.env.PAIRWISE_FUZZ_LARGE === '1';

let cleanup = () => undefined as void;
afterEach(() => cleanup());

interface Measured {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set of the CLI process and its worker threads, when /usr/bin/time exists. */
  peakRssMb: number | null;
  seconds: number;
}

/** The CLI as a child process, its peak memory measured by GNU time where there is one. */
function runCliMeasured(args: string[]): Measured {
  const node = [process.execPath, '--import', 'tsx', entry, ...args];
  const gnuTime = fs.existsSync('/usr/bin/time') ? ['/usr/bin/time', '-v'] : [];
  const [command, ...rest] = [...gnuTime, ...node];
  const started = Date.now();
  const result = spawnSync(command!, rest, {
    cwd: root,
    env: { ...process.env, PAIRWISE_CLI_MAIN: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 ** 2,
    timeout: 600_000,
  });
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1];
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    peakRssMb: rss ? Math.round(Number(rss) / 1024) : null,
    seconds: (Date.now() - started) / 1000,
  };
}

/** One good run in every format, as the fixtures write them; returns unit paths. */
function writeGoodRuns(dir: string): string[] {
  const units: string[] = [];
  units.push(writeMechlensRun(dir, { id: 'good-ref', name: 'reference', examples: examples(6) }));
  units.push(
    writeMechlensRun(dir, {
      id: 'good-int',
      name: 'steer',
      experiment: { id: 'exp-test', role: 'intervention' },
      examples: examples(6, (i) => ({ refused: i % 3 === 0, score: 2 })),
    }),
  );
  units.push(
    writeGenericJsonl(path.join(dir, 'jsonl'), 'answers.jsonl', [
      { id: 'a', input: 'q', output: 'x', score: 1 },
      { id: 'b', input: 'q', output: 'y', score: 0 },
    ]),
  );
  units.push(writeGenericCsv(path.join(dir, 'csv'), 'answers.csv', 'id,input,output\na,q,x\n'));
  units.push(writeLmEval(path.join(dir, 'lm-eval')).results);
  units.push(writePromptfoo(path.join(dir, 'promptfoo')));
  fs.mkdirSync(path.join(dir, 'inspect'));
  units.push(
    writeEvalLog(path.join(dir, 'inspect', 'good.eval'), 'finished', {
      samples: [evalSample({ id: 1 }), evalSample({ id: 2 })],
    }),
  );
  units.push(
    writeRepsRun({
      dataDir: path.join(dir, 'reps'),
      samples: [{ id: 1, input: 'q', output: 'a', scores: { match: 'C' } }],
    }).path,
  );
  return units;
}

/** A message a person can act on: a sentence, not a stack trace, an object or "undefined". */
function expectActionable(message: string, where: string): void {
  expect(message.length, where).toBeGreaterThan(10);
  expect(message.length, where).toBeLessThan(600);
  expect(message, where).not.toMatch(/undefined|\[object |\n\s+at |a bug in Pairwise/);
}

function freeBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

describe('a library of hostile files, indexed through the CLI', () => {
  it(
    'imports every good file, gives every bad one a problem a person can act on, and keeps the database sound',
    () => {
      const t = tempDir();
      cleanup = t.cleanup;
      // The large corpus is ~850 MB on disk (the 2 GiB file is sparse and takes none).
      if (LARGE && freeBytes(t.dir) < 3 * 1024 ** 3)
        throw new Error(`the large hostile corpus needs 3 GB free in ${os.tmpdir()}`);
      const lib = path.join(t.dir, 'lib');
      const corpus: HostileEntry[] = writeHostileCorpus(path.join(lib, 'hostile'), {
        large: LARGE,
      }).map((e) => ({ ...e, file: `hostile/${e.file}` }));
      const good = writeGoodRuns(path.join(lib, 'good'));
      const db = path.join(t.dir, 'pairwise.db');

      const run = runCliMeasured(['index', lib, '--db', db, '--json']);
      expect(run.status, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as {
        sources: { scanned: number; imported: number; failed: number };
        runs: number;
        examples: number;
        problems: { path: string; message: string }[];
      };
      const problems = new Map(out.problems.map((p) => [p.path, p.message]));

      const bad = corpus.filter((e) => e.expectation === 'problem');
      for (const e of bad) {
        const message = problems.get(e.file);
        expect(message, `${e.file} (${e.why}) should be a problem`).toBeDefined();
        expectActionable(message!, e.file);
      }
      // Nothing but the hostile files is a problem.
      expect([...problems.keys()].sort()).toEqual(bad.map((e) => e.file).sort());

      const conn = new Database(db, { readonly: true });
      try {
        expect(conn.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(conn.pragma('foreign_key_check')).toEqual([]);
        const status = conn.prepare(`SELECT status, error FROM sources WHERE path = ?`);
        const mustImport = [
          ...good,
          ...corpus.filter((e) => e.expectation === 'imports').map((e) => path.join(lib, e.file)),
        ];
        for (const file of mustImport) {
          expect(status.get(file), file).toEqual({ status: 'imported', error: null });
        }
        const count = (sql: string) => (conn.prepare(sql).get() as { n: number }).n;
        expect(count(`SELECT COUNT(*) AS n FROM examples_fts`)).toBe(storedExampleCount(conn));

        // Decisions about odd but valid data (docs/reliability.md).
        const ids = (runId: string) =>
          storedExamples(conn, runId)
            .map((r) => r.example_id)
            .sort();
        expect(ids('hostile-path-ids')).toEqual(
          ['../../etc/passwd', '/absolute/path', 'C:\\Windows\\system32', 'nul\u0000byte'].sort(),
        );
        // Lone surrogates are stored as U+FFFD, and the stored id finds its row again.
        expect(ids('hostile-lone-surrogates')).toEqual(['s\ufffd', 't\ufffd']);
        const byId = (runId: string, id: string) =>
          storedExamples(conn, runId).find((r) => r.example_id === id)?.input;
        expect(byId('hostile-lone-surrogates', 's\ufffd')).toBe('lone high \ufffd surrogate');
        // NFC and NFD spellings of one id stay two ids, with a warning on the run.
        expect(ids('hostile-unicode-ids')).toHaveLength(2);
        const warnings = conn
          .prepare(`SELECT warnings FROM runs WHERE id = 'hostile-unicode-ids'`)
          .get() as { warnings: string };
        expect(warnings.warnings).toMatch(/differ only in Unicode normalization/);
        // Integers past 2^53 lose precision; 1e400 overflows to a non-finite number, stored as null.
        const fields = storedExamples(conn, 'hostile-big-numbers')[0]!;
        expect(JSON.parse(fields.fields)).toEqual({ k: 0, m: null, n: 9007199254740992 });
        expect(storedExamples(conn, 'hostile-big-output')[0]!.output.length).toBe(50 * 1024 ** 2);
      } finally {
        conn.close();
      }

      // A second pass over the same hostile library is calm: nothing changed, nothing re-read.
      const again = runCliMeasured(['index', lib, '--db', db, '--json']);
      expect(again.status, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).sources.imported).toBe(0);

      const figures = {
        corpus: corpus.length,
        problems: bad.length,
        imported: out.sources.imported,
        goodFiles: good.length,
        peakRssMb: run.peakRssMb,
        seconds: run.seconds,
      };
      console.info(`hostile corpus${LARGE ? ' (large)' : ''}: ${JSON.stringify(figures)}`);
      // The 50 MB output is the biggest thing in the small corpus; ten million examples and the
      // array bomb in the large one. Peak covers the CLI's main thread and its index workers.
      if (run.peakRssMb !== null) expect(run.peakRssMb).toBeLessThan(LARGE ? 3 * 1024 : 1024);
    },
    LARGE ? 600_000 : 120_000,
  );
});

describe('an index worker that dies on a full disk', () => {
  it('says the disk is full, not that Pairwise has a bug', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const lib = path.join(t.dir, 'lib');
    const file = writeMechlensRun(lib, { id: 'full', name: 'reference', examples: examples(3) });
    const db = openDatabase(path.join(t.dir, 'p.db'));
    const pool = {
      run: () =>
        Promise.reject(
          Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
        ),
    } as unknown as WorkerPool;
    try {
      const stats = await indexPaths({
        db,
        pool,
        paths: [lib],
        signal: new AbortController().signal,
      });
      expect(stats.problems).toEqual([
        { path: file, message: expect.stringMatching(/^The disk holding the library is full/) },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('an index worker that dies on a file', () => {
  it('fails that file with a clear problem and indexes the rest', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const lib = path.join(t.dir, 'lib');
    writeMechlensRun(lib, { id: 'good', name: 'reference', examples: examples(3) });
    const deadly = writeMechlensRun(lib, { id: 'deadly', name: 'steer', examples: examples(3) });
    const db = openDatabase(path.join(t.dir, 'p.db'));
    // Stands in for a worker killed by V8's heap limit: the pool rejects that one task.
    const pool = {
      run: async (task: IndexTask, options: { signal: AbortSignal }) => {
        if (task.unit.path === deadly) {
          throw Object.assign(new Error('Worker terminated due to reaching memory limit'), {
            code: 'ERR_WORKER_OUT_OF_MEMORY',
          });
        }
        return indexUnit(task, new IndexStore(db), options.signal);
      },
    } as unknown as WorkerPool;
    try {
      const stats = await indexPaths({
        db,
        pool,
        paths: [lib],
        signal: new AbortController().signal,
      });
      expect(stats.sources).toMatchObject({ imported: 1, failed: 1 });
      expect(stats.problems).toEqual([
        { path: deadly, message: expect.stringMatching(/ran out of memory.*smaller files/) },
      ]);
      expect(db.prepare(`SELECT id FROM runs`).all()).toEqual([{ id: 'good' }]);
    } finally {
      db.close();
    }
  });
});

describe('index workers that cannot start', () => {
  it('fail the pass with the reason and blame no file, so the next pass reads them all', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const lib = path.join(t.dir, 'lib');
    writeMechlensRun(lib, { id: 'a', name: 'reference', examples: examples(3) });
    writeMechlensRun(lib, { id: 'b', name: 'steer', examples: examples(3) });
    const db = openDatabase(path.join(t.dir, 'p.db'));
    // A native module built for another runtime: every worker's code throws as it loads.
    const pool = new WorkerPool(
      {
        script: `throw new Error('The module was compiled against a different Node.js version');`,
        eval: true,
      },
      2,
    );
    try {
      const pass = indexPaths({ db, pool, paths: [lib], signal: new AbortController().signal });
      await expect(pass).rejects.toBeInstanceOf(WorkerStartError);
      await expect(pass).rejects.toThrow(/compiled against a different Node\.js version/);
      expect(db.prepare(`SELECT COUNT(*) AS n FROM sources`).get()).toEqual({ n: 0 });
    } finally {
      await pool.close();
      db.close();
    }
  });
});
