import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/compare/types';
import { runCli } from '../fixtures/cli';
import { writeFile } from '../fixtures/formats';
import { SAME_MODEL as MODEL, writeSameModelLog as writeLog } from '../fixtures/same-model-logs';
import { tempDir } from '../fixtures/tmp';

let cleanup = () => undefined as void;
afterEach(() => cleanup());

interface RunJson {
  run_id: string;
  condition: string;
  superseded: boolean;
  examples: number;
}

function library() {
  const t = tempDir();
  cleanup = t.cleanup;
  const logs = path.join(t.dir, 'logs');
  const first = writeLog(logs, 'a.json', {
    evalId: 'evalA',
    taskId: 'task1',
    commit: 'aaaaaaa',
    startedAt: '2025-01-01T10:00:00Z',
  });
  const second = writeLog(logs, 'b.json', {
    evalId: 'evalB',
    taskId: 'task2',
    commit: 'bbbbbbb',
    startedAt: '2025-01-01T11:00:00Z',
    changed: ['s2'],
  });
  return { dir: t.dir, logs, first, second, db: path.join(t.dir, 'p.db') };
}

function runs(db: string): RunJson[] {
  return JSON.parse(runCli(['runs', '--db', db, '--json']).stdout) as RunJson[];
}

describe('runs are never hidden, and any two runs compare', () => {
  it('names two runs of one model by their code revision instead of superseding one', () => {
    const lib = library();
    expect(runCli(['index', lib.logs, '--db', lib.db]).status).toBe(0);
    const rows = runs(lib.db);
    expect(rows.map((r) => [r.run_id, r.condition, r.superseded])).toEqual([
      ['evalA', `${MODEL} revision=aaaaaaa`, false],
      ['evalB', `${MODEL} revision=bbbbbbb`, false],
    ]);
  });

  it('supersedes an Inspect log only by a retry of the same task, and keeps replicates', () => {
    const lib = library();
    writeLog(lib.logs, 'a-retry.json', {
      evalId: 'evalA2',
      taskId: 'task1',
      commit: 'aaaaaaa',
      startedAt: '2025-01-01T12:00:00Z',
    });
    writeLog(lib.logs, 'a-again.json', {
      evalId: 'evalA3',
      taskId: 'task3',
      commit: 'aaaaaaa',
      startedAt: '2025-01-01T13:00:00Z',
    });
    runCli(['index', lib.logs, '--db', lib.db]);
    const byId = new Map(runs(lib.db).map((r) => [r.run_id, r]));
    expect(byId.get('evalA')!.superseded).toBe(true);
    expect(byId.get('evalA2')!.superseded).toBe(false);
    expect(byId.get('evalA3')!.superseded).toBe(false);
    expect(byId.get('evalA3')!.condition).toBe(byId.get('evalA2')!.condition);
  });

  it('guesses the earliest run with examples as the reference and says so in the report', () => {
    const lib = library();
    writeLog(lib.logs, 'empty.json', {
      evalId: 'evalEmpty',
      taskId: 'task0',
      commit: 'ccccccc',
      model: 'openai/gpt-4o',
      startedAt: '2024-01-01T00:00:00Z',
      samples: 0,
    });
    runCli(['index', lib.logs, '--db', lib.db]);
    const result = runCli(['compare', '--db', lib.db, '--format', 'json', '--resamples', '200']);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.experiment.reference).toBe(`${MODEL} revision=aaaaaaa`);
    expect(report.experiment.reference_basis).toBe('earliest');
    expect(report.comparisons[0]!.limitations).toContain(
      `The reference (${MODEL} revision=aaaaaaa) was guessed as the earliest run: nothing in the files declares it.`,
    );
    const table = runCli(['compare', '--db', lib.db, '--resamples', '200']).stdout;
    expect(table).toMatch(/reference guessed: earliest run — change with --reference/);
    const chosen = runCli([
      'compare',
      '--db',
      lib.db,
      '--reference',
      `${MODEL} revision=bbbbbbb`,
      '--format',
      'json',
      '--resamples',
      '200',
    ]);
    expect((JSON.parse(chosen.stdout) as Report).experiment.reference_basis).toBe('chosen');
  });

  it('compare A B: two files, the first is the baseline, with the right paired n', () => {
    const lib = library();
    const result = runCli([
      'compare',
      lib.second,
      lib.first,
      '--format',
      'json',
      '--resamples',
      '200',
    ]);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    // The words both names share go to the title; each side keeps what tells it apart.
    expect(report.experiment.reference).toBe('revision=bbbbbbb');
    expect(report.experiment.name).toBe(`popularity · ${MODEL} · evalB vs evalA`);
    expect(report.comparisons).toHaveLength(1);
    const [comparison] = report.comparisons;
    expect(comparison!.candidate.run_id).toBe('evalA');
    expect(comparison!.coverage.paired).toBe(5);
    expect(comparison!.examples.output_changed).toEqual(['s2']);
  });

  it('compare --baseline --candidate on a database, and two run ids with --db', () => {
    const lib = library();
    runCli(['index', lib.logs, '--db', lib.db]);
    for (const args of [
      ['--baseline', 'evalA', '--candidate', 'evalB'],
      ['evalA', 'evalB'],
    ]) {
      const result = runCli(['compare', '--db', lib.db, ...args, '--format', 'json']);
      expect(result.status).toBe(0);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.comparisons[0]!.reference.run_id).toBe('evalA');
      expect(report.comparisons[0]!.candidate.run_id).toBe('evalB');
    }
    const missing = runCli(['compare', '--db', lib.db, '--baseline', 'evalA', '--candidate', 'x']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/There is no run "x"/);
    expect(runCli(['compare', '--db', lib.db, '--baseline', 'evalA']).status).toBe(2);
  });

  it('two runs of one condition compare as baseline and candidate', () => {
    const lib = library();
    const copy = writeLog(lib.dir, 'other/a.json', {
      evalId: 'evalC',
      taskId: 'task9',
      commit: 'aaaaaaa',
      startedAt: '2025-01-02T10:00:00Z',
      changed: ['s1', 's3'],
    });
    const result = runCli(['compare', lib.first, copy, '--format', 'json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.comparisons[0]!.reference.condition).toBe('baseline');
    expect(report.comparisons[0]!.candidate.condition).toBe('candidate');
    expect(report.comparisons[0]!.examples.output_changed).toEqual(['s1', 's3']);
  });

  it('a path holding several experiments compares them all, one section each', () => {
    const lib = library();
    writeLog(lib.logs, 'other.json', {
      evalId: 'evalO',
      taskId: 'taskO',
      commit: 'aaaaaaa',
      task: 'other_task',
      startedAt: '2025-01-01T09:00:00Z',
    });
    const result = runCli(['compare', lib.logs, '--resamples', '200']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Experiment other_task/m);
    expect(result.stdout).toMatch(/^Experiment popularity/m);
    const json = runCli(['compare', lib.logs, '--format', 'json', '--resamples', '200']);
    expect((JSON.parse(json.stdout) as Report[]).map((r) => r.experiment.id).sort()).toEqual([
      'other_task',
      'popularity',
    ]);
    expect(runCli(['compare', lib.logs, '--format', 'csv']).status).toBe(2);
  });

  it('a copied log (the same run id in two files) is a problem on both, not a silent replacement', () => {
    const lib = library();
    fs.mkdirSync(path.join(lib.logs, 'copy'));
    fs.copyFileSync(lib.first, path.join(lib.logs, 'copy', 'a.json'));
    const result = runCli(['index', lib.logs, '--db', lib.db, '--json']);
    const out = JSON.parse(result.stdout) as {
      sources: { failed: number };
      problems: { path: string; message: string }[];
    };
    expect(out.sources.failed).toBe(1);
    expect(out.problems[0]!.message).toMatch(/run id "evalA" is already indexed from .*a\.json/);
    const kept = runs(lib.db).find((r) => r.run_id === 'evalA') as RunJson & { warnings: string[] };
    expect(kept.warnings.join('\n')).toMatch(/holds the same run id and was not indexed/);
  });

  it('a path with nothing readable says so instead of asking to index first', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    writeFile(t.dir, 'notes.txt', 'hello');
    const result = runCli(['compare', t.dir]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/no run could be read from/);
  });
});
