import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli';
import { examples, writeFile, writeMechlensRun } from '../fixtures/formats';
import { tempDir } from '../fixtures/tmp';

let cleanup = () => undefined as void;
afterEach(() => cleanup());

function scratch(): string {
  const t = tempDir();
  cleanup = t.cleanup;
  return t.dir;
}

function experiment(dir: string): string {
  const root = path.join(dir, 'runs');
  writeMechlensRun(root, { id: 'ref-1', name: 'reference', examples: examples(12) });
  writeMechlensRun(root, {
    id: 'int-1',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    condition: { expect: { refusal_rate: 'decrease' }, compare_to: [], series: null, level: null },
    examples: examples(12, (i) => ({ refused: i % 4 === 0, score: (i % 5) + 1 })),
  });
  return root;
}

describe('pairwise CLI', () => {
  it('prints usage, its version, and uses exit codes 0 / 2', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/pairwise serve/);
    expect(runCli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(runCli([]).status).toBe(2);
    const unknown = runCli(['index', '--bogus']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/bogus/);
    expect(runCli(['frobnicate']).status).toBe(2);
  });

  it('index --json reports sources, runs, examples and problems with paths relative to the argument', () => {
    const dir = scratch();
    const root = experiment(dir);
    writeFile(
      root,
      'z/.mechlens/runs/bad.json',
      '{"project": "p", "name": "n", "model": {"id": "m"}, "examples": [1,',
    );
    writeFile(root, 'a/.mechlens/runs/empty.json', '');
    const db = path.join(dir, 'p.db');
    const result = runCli(['index', root, '--db', db, '--json']);
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout) as {
      sources: Record<string, number>;
      runs: number;
      examples: number;
      problems: { path: string; message: string }[];
    };
    expect(out.sources).toEqual({ scanned: 4, imported: 2, unchanged: 0, failed: 2 });
    expect(out.runs).toBe(2);
    expect(out.examples).toBe(24);
    expect(out.problems.map((p) => p.path)).toEqual([
      'a/.mechlens/runs/empty.json',
      'z/.mechlens/runs/bad.json',
    ]);
    expect(out.problems[0]!.message).toMatch(/empty/);
    const again = JSON.parse(runCli(['index', root, '--db', db, '--json']).stdout) as {
      sources: Record<string, number>;
      problems: { path: string }[];
    };
    expect(again.sources).toEqual({ scanned: 4, imported: 0, unchanged: 2, failed: 2 });
    expect(again.problems.map((p) => p.path)).toEqual(out.problems.map((p) => p.path));
  });

  it('index says what it read in words, one of a thing singular', () => {
    const dir = scratch();
    const root = path.join(dir, 'runs');
    writeMechlensRun(root, { id: 'only', name: 'reference', examples: examples(1) });
    const result = runCli(['index', root, '--db', path.join(dir, 'p.db')]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      '1 source: 1 imported, 0 unchanged, 0 failed — 1 run, 1 example.',
    );
  });

  it('index archives the texts before it exits, unless --no-archive', () => {
    const dir = scratch();
    const root = experiment(dir);
    const encodings = (db: string) => {
      const open = new Database(db, { readonly: true });
      try {
        return open.prepare(`SELECT encoding FROM run_texts`).pluck().all() as string[];
      } finally {
        open.close();
      }
    };
    type Archive = { blocks: number; bytes: number; compressedBytes: number; inPlace: number };
    const archiveOf = (stdout: string) => (JSON.parse(stdout) as { archive: Archive }).archive;
    const kept = path.join(dir, 'kept.db');
    const left = archiveOf(runCli(['index', root, '--db', kept, '--json', '--no-archive']).stdout);
    expect(left).toMatchObject({ blocks: 0, bytes: 0 });
    expect(encodings(kept)).toHaveLength(2);
    expect(encodings(kept)).not.toContain('sections');
    const db = path.join(dir, 'p.db');
    const result = runCli(['index', root, '--db', db, '--json']);
    expect(result.status).toBe(0);
    const archive = archiveOf(result.stdout);
    expect(archive).toMatchObject({ blocks: 2, inPlace: 0 });
    expect(archive.compressedBytes).toBeLessThan(archive.bytes);
    expect(encodings(db)).toEqual(['sections', 'sections']);
    expect(runCli(['index', root, '--db', kept]).stdout).toMatch(/Texts archived: 2 blocks/);
    expect(encodings(kept)).toEqual(['sections', 'sections']);
  });

  it('index exits 1 when nothing could be done', () => {
    const dir = scratch();
    writeFile(dir, 'only/.mechlens/runs/bad.json', '{');
    const result = runCli([
      'index',
      path.join(dir, 'only'),
      '--db',
      path.join(dir, 'p.db'),
      '--json',
    ]);
    expect(result.status).toBe(1);
  });

  it('runs --json lists one object per run with the contract fields', () => {
    const dir = scratch();
    const root = experiment(dir);
    const db = path.join(dir, 'p.db');
    runCli(['index', root, '--db', db]);
    const runs = JSON.parse(runCli(['runs', '--db', db, '--json']).stdout) as Record<
      string,
      unknown
    >[];
    expect(runs).toHaveLength(2);
    expect(Object.keys(runs[0]!).sort()).toEqual(
      [
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
      ].sort(),
    );
    expect(runs.find((r) => r.run_id === 'int-1')).toMatchObject({
      format: 'mechlens',
      condition: 'steer',
      role: 'intervention',
      examples: 12,
      superseded: false,
    });
  });

  it('compare PATH prints the same JSON report twice, byte for byte', () => {
    const dir = scratch();
    const root = experiment(dir);
    const first = runCli(['compare', root, '--format', 'json', '--resamples', '2000']);
    expect(first.status).toBe(0);
    const report = JSON.parse(first.stdout) as {
      checker_version: string;
      experiment: { id: string; reference: string };
      comparisons: {
        candidate: { condition: string };
        metrics: { name: string; paired: { n: number; ci95: number[]; resamples: number } }[];
      }[];
    };
    expect(report.checker_version).toBe('1');
    expect(report.experiment).toMatchObject({ id: 'exp-test', reference: 'reference' });
    expect(report.comparisons).toHaveLength(1);
    const metric = report.comparisons[0]!.metrics.find((m) => m.name === 'refusal_rate')!;
    expect(metric.paired).toMatchObject({ n: 12, resamples: 2000 });
    expect(runCli(['compare', root, '--format', 'json', '--resamples', '2000']).stdout).toBe(
      first.stdout,
    );
  });

  it('compare --db writes the example CSV and the summary CSV', () => {
    const dir = scratch();
    const root = experiment(dir);
    const db = path.join(dir, 'p.db');
    runCli(['index', root, '--db', db]);
    const csv = runCli(['compare', '--db', db, '--format', 'csv', '--resamples', '500']);
    expect(csv.status).toBe(0);
    // A byte order mark for Excel, then one row per paired example with the criteria as columns.
    expect(csv.stdout.startsWith('\uFEFFexperiment_id,')).toBe(true);
    const lines = csv.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'experiment_id,reference_condition,reference_run_id,candidate_condition,candidate_run_id,example_id,input,reference_output,candidate_output,output_changed,behavior_changed,refused.reference,refused.candidate,refused.change,score.reference,score.candidate,score.change',
    );
    expect(lines).toHaveLength(1 + 12);
    const summary = runCli([
      'compare',
      '--db',
      db,
      '--format',
      'summary-csv',
      '--resamples',
      '500',
    ]);
    expect(summary.stdout.trim().split(/\r?\n/)).toHaveLength(2);
    expect(runCli(['compare', '--db', db, '--format', 'xml']).status).toBe(2);
  });
});
