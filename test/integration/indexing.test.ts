import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listRuns } from '../../electron/core/library';
import { examples, writeFile, writeMechlensRun } from '../fixtures/formats';
import { makeService, reopened, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

function library(dir: string): string {
  const root = path.join(dir, 'library');
  const runs = path.join(root, 'exp');
  writeMechlensRun(runs, { id: 'ref-1', name: 'reference', examples: examples(5) });
  writeMechlensRun(runs, {
    id: 'int-1',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(5, (i) => ({ refused: false, score: i })),
  });
  return root;
}

describe('indexing a folder', () => {
  it('imports every run, records problems per file, and keeps going', async () => {
    harness = makeService();
    const root = library(harness.dir);
    writeFile(
      root,
      'exp/.mechlens/runs/broken.json',
      '{"project": "x", "name": "y", "examples": [',
    );
    writeFile(root, 'notes/unrelated.json', '{"hello": "world"}');
    const stats = await harness.service.index([root]);
    expect(stats.sources).toEqual({ scanned: 4, imported: 2, unchanged: 0, failed: 1 });
    expect(stats.runs).toBe(2);
    expect(stats.examples).toBe(10);
    expect(stats.problems).toHaveLength(1);
    expect(stats.problems[0]!.path).toMatch(/broken\.json$/);
    expect(stats.problems[0]!.message).toMatch(/line 1/);
    await harness.service.search.idle();
    const runs = listRuns(harness.service.db);
    expect(runs.map((r) => [r.run_id, r.condition, r.role])).toEqual([
      ['ref-1', 'reference', 'reference'],
      ['int-1', 'steer', 'intervention'],
    ]);
    const fts = harness.service.db
      .prepare(
        `SELECT COUNT(*) AS n FROM examples_fts WHERE examples_fts MATCH '"Prompt" "number" "3"'`,
      )
      .get() as { n: number };
    expect(fts.n).toBe(2);
  });

  it('skips unchanged files on rescan and re-imports a changed one', async () => {
    harness = makeService();
    const root = library(harness.dir);
    await harness.service.index([root]);
    const again = await harness.service.index([root]);
    expect(again.sources).toMatchObject({ scanned: 2, imported: 0, unchanged: 2, failed: 0 });
    const file = path.join(root, 'exp/.mechlens/runs/ref-1.json');
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as { examples: unknown[] };
    record.examples.pop();
    fs.writeFileSync(file, JSON.stringify(record));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const third = await harness.service.index([root]);
    expect(third.sources).toMatchObject({ imported: 1, unchanged: 1 });
    expect(listRuns(harness.service.db).find((r) => r.run_id === 'ref-1')?.examples).toBe(4);
  });

  it('keeps the last good import when a file goes bad, and marks deleted files missing', async () => {
    harness = makeService();
    const root = library(harness.dir);
    await harness.service.index([root]);
    const file = path.join(root, 'exp/.mechlens/runs/int-1.json');
    fs.writeFileSync(file, '{"truncated": ');
    const bad = await harness.service.index([root]);
    expect(bad.sources.failed).toBe(1);
    expect(listRuns(harness.service.db).find((r) => r.run_id === 'int-1')?.examples).toBe(5);
    fs.rmSync(file);
    await harness.service.index([root]);
    const run = listRuns(harness.service.db).find((r) => r.run_id === 'int-1');
    expect(run?.missing).toBe(true);
    expect(run?.state).toBe('missing');
  });

  it('reports a source that is still failed on every pass, not only the first', async () => {
    harness = makeService();
    const root = library(harness.dir);
    writeFile(root, 'exp/.mechlens/runs/broken.json', '{"project": "x", "examples": [');
    const first = await harness.service.index([root]);
    const second = await harness.service.index([root]);
    expect(second.sources).toEqual({ scanned: 3, imported: 0, unchanged: 2, failed: 1 });
    expect(second.problems).toEqual(first.problems);
    expect(second.problems.map((p) => path.basename(p.path))).toEqual(['broken.json']);
    const problems = harness.service.handlers['library:problems']({}) as { path: string }[];
    expect(problems.map((p) => p.path)).toEqual(second.problems.map((p) => p.path));
  });

  it('reads a failed source again even when its size and mtime did not change', async () => {
    harness = makeService();
    const root = library(harness.dir);
    const file = path.join(root, 'exp/.mechlens/runs/ref-1.json');
    const good = fs.readFileSync(file);
    const { mtime } = fs.statSync(file);
    // Same size, same mtime, unreadable: what a file caught by a passing failure looks like.
    fs.writeFileSync(file, Buffer.concat([Buffer.from('x'), good.subarray(1)]));
    fs.utimesSync(file, mtime, mtime);
    const failed = await harness.service.index([root]);
    expect(failed.sources).toMatchObject({ imported: 1, failed: 1 });
    fs.writeFileSync(file, good);
    fs.utimesSync(file, mtime, mtime);
    const retried = await harness.service.index([root]);
    expect(retried.sources).toEqual({ scanned: 2, imported: 1, unchanged: 1, failed: 0 });
    expect(retried.problems).toEqual([]);
    expect(listRuns(harness.service.db).map((r) => r.run_id)).toContain('ref-1');
    expect(harness.service.handlers['library:problems']({})).toEqual([]);
  });

  it('supersedes an earlier run of the same condition', async () => {
    harness = makeService();
    const root = library(harness.dir);
    writeMechlensRun(path.join(root, 'exp'), {
      id: 'ref-2',
      name: 'reference',
      extra: { finished_at: '2030-01-01T00:00:00Z' },
    });
    await harness.service.index([root]);
    const runs = listRuns(harness.service.db).filter((r) => r.condition === 'reference');
    expect(runs.find((r) => r.run_id === 'ref-2')?.superseded).toBe(false);
    expect(runs.find((r) => r.run_id === 'ref-1')?.superseded).toBe(true);
  });
});

describe('folders', () => {
  it('an added folder is remembered; removing it takes its runs out of the library', async () => {
    harness = makeService();
    const root = library(harness.dir);
    const { jobId } = harness.service.handlers['library:addFolder']({
      path: root,
      watch: false,
    }) as { jobId: string };
    await harness.service.jobs.wait(jobId);
    const summary = harness.service.handlers['library:summary']({}) as {
      folders: { path: string }[];
      runs: number;
    };
    expect(summary.folders.map((f) => f.path)).toEqual([root]);
    expect(summary.runs).toBe(2);
    await harness.service.handlers['library:removeFolder']({ path: root });
    const after = harness.service.handlers['library:summary']({}) as {
      folders: unknown[];
      runs: number;
    };
    expect(after).toMatchObject({ folders: [], runs: 0 });
  });
});

describe('watching', () => {
  it('indexes a file written into a watched folder after writes settle', async () => {
    harness = makeService({ watch: true });
    const { service } = harness;
    const root = library(harness.dir);
    const { jobId } = service.handlers['library:addFolder']({ path: root, watch: true }) as {
      jobId: string;
    };
    await service.jobs.wait(jobId);
    const indexed = new Promise<void>((resolve) => {
      service.events.on('index:changed', ({ runs }) => {
        if (runs > 0) resolve();
      });
    });
    writeMechlensRun(path.join(root, 'later'), {
      id: 'late-1',
      name: 'late',
      examples: examples(3),
    });
    await indexed;
    expect(listRuns(service.db).map((r) => r.run_id)).toContain('late-1');
  }, 30_000);

  it('finds what changed in a watched folder while the library was closed when it opens again', async () => {
    harness = makeService({ watch: true });
    const root = library(harness.dir);
    const { jobId } = harness.service.handlers['library:addFolder']({
      path: root,
      watch: true,
    }) as {
      jobId: string;
    };
    await harness.service.jobs.wait(jobId);
    const closed = harness;
    harness = null;
    writeMechlensRun(path.join(root, 'overnight'), {
      id: 'night-1',
      name: 'overnight',
      examples: examples(3),
    });
    fs.rmSync(path.join(root, 'exp', '.mechlens', 'runs', 'int-1.json'));
    harness = await reopened(closed, { watch: true });
    const { service } = harness;
    const pass = service.jobs
      .list()
      .find((job) => job.kind === 'index' && job.title === 'Updating library');
    expect(pass).toBeDefined();
    await service.jobs.wait(pass!.id);
    const runs = listRuns(service.db).map((r) => [r.run_id, r.missing]);
    expect(runs).toContainEqual(['night-1', false]);
    expect(runs).toContainEqual(['int-1', true]);
  }, 30_000);

  it('starts its index workers as it opens when asked (the desktop app, the browser host), else at the first pass', async () => {
    harness = makeService();
    expect(harness.service.indexWorkersStarted).toBe(0);
    harness = await reopened(harness, { startIndexWorkers: true });
    expect(harness.service.indexWorkersStarted).toBe(1);
    // The pass uses the workers already started rather than starting others.
    const stats = await harness.service.index([library(harness.dir)]);
    expect(stats.runs).toBe(2);
    expect(harness.service.indexWorkersStarted).toBe(1);
  });

  it('does not rescan at open a library that is not watched (the CLI)', async () => {
    harness = makeService();
    const root = library(harness.dir);
    await harness.service.index([root]);
    writeMechlensRun(path.join(root, 'overnight'), {
      id: 'night-1',
      name: 'overnight',
      examples: examples(3),
    });
    harness = await reopened(harness);
    expect(
      harness.service.jobs
        .list()
        .filter((job) => job.kind === 'index')
        .map((job) => job.title),
    ).toEqual(['Indexing library']);
  });
});
