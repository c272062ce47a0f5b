import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupFolder, scanPaths } from '../../../electron/core/ingest/scan';
import { writeFile, writeLmEval, writeMechlensRun } from '../../fixtures/formats';
import { tempDir } from '../../fixtures/tmp';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const scan = (paths: string[], maxUnits?: number) =>
  scanPaths(paths, { signal: new AbortController().signal, maxUnits });
const rel = (p: string) => path.relative(dir, p) || '.';

describe('groupFolder', () => {
  it('makes a REPS run folder one unit', () => {
    expect(groupFolder('/r', ['run.json', 'events.jsonl', 'notes.json'])).toEqual({
      units: [{ path: '/r', kind: 'reps-run', files: ['/r/run.json', '/r/events.jsonl'] }],
      repsRun: true,
    });
    expect(groupFolder('/r', ['events.jsonl.zst']).units[0]?.files).toEqual([
      '/r/events.jsonl.zst',
    ]);
    expect(groupFolder('/r', ['run.json']).units).toEqual([
      { path: '/r/run.json', kind: 'file', files: ['/r/run.json'] },
    ]);
  });

  it('makes a run.json without events a REPS run inside runs/<condition>/<run>/', () => {
    expect(groupFolder('/data/runs/c0ffee-exp/run-1', ['run.json'])).toEqual({
      units: [
        {
          path: '/data/runs/c0ffee-exp/run-1',
          kind: 'reps-run',
          files: ['/data/runs/c0ffee-exp/run-1/run.json'],
        },
      ],
      repsRun: true,
    });
  });

  it('gives lm-eval results their samples files of the same date', () => {
    const names = [
      'results_2026-01-01T00-00-00.5.json',
      'samples_gsm8k_2026-01-01T00-00-00.5.jsonl',
      'samples_arc_easy_2026-01-01T00-00-00.5.jsonl',
      'samples_gsm8k_2026-02-02T00-00-00.5.jsonl',
      'mgsm_2026-03-03T00-00-00.1.json',
      'renamed_2026-02-02T00-00-00.5.json',
    ];
    expect(groupFolder('/o', names).units).toEqual([
      {
        path: '/o/results_2026-01-01T00-00-00.5.json',
        kind: 'lm-eval',
        files: [
          '/o/results_2026-01-01T00-00-00.5.json',
          '/o/samples_arc_easy_2026-01-01T00-00-00.5.jsonl',
          '/o/samples_gsm8k_2026-01-01T00-00-00.5.jsonl',
        ],
      },
      {
        path: '/o/renamed_2026-02-02T00-00-00.5.json',
        kind: 'lm-eval',
        files: [
          '/o/renamed_2026-02-02T00-00-00.5.json',
          '/o/samples_gsm8k_2026-02-02T00-00-00.5.jsonl',
        ],
      },
      {
        path: '/o/mgsm_2026-03-03T00-00-00.1.json',
        kind: 'file',
        files: ['/o/mgsm_2026-03-03T00-00-00.1.json'],
      },
    ]);
  });

  it('groups every lm-eval layout: .json samples, 0.4.0 results.json, and orphan samples', () => {
    const names = [
      'results_2024-06-17T15-44-37.8.json',
      'samples_bias_2024-06-17T15-44-37.8.json',
      'results.json',
      'model__gpt-4_wmdp_bio.jsonl',
      'samples_truthfulqa_gen_2025-05-31T14-30-51.9.jsonl',
      'notes.jsonl',
    ];
    expect(groupFolder('/o', names).units).toEqual([
      {
        path: '/o/results_2024-06-17T15-44-37.8.json',
        kind: 'lm-eval',
        files: [
          '/o/results_2024-06-17T15-44-37.8.json',
          '/o/samples_bias_2024-06-17T15-44-37.8.json',
        ],
      },
      {
        path: '/o/results.json',
        kind: 'lm-eval',
        files: ['/o/results.json', '/o/model__gpt-4_wmdp_bio.jsonl'],
      },
      {
        path: '/o/samples_truthfulqa_gen_2025-05-31T14-30-51.9.jsonl',
        kind: 'lm-eval',
        files: ['/o/samples_truthfulqa_gen_2025-05-31T14-30-51.9.jsonl'],
      },
      { path: '/o/notes.jsonl', kind: 'file', files: ['/o/notes.jsonl'] },
    ]);
  });

  it('attaches a pairwise.json sidecar to .jsonl and .csv units and never makes it a unit', () => {
    expect(
      groupFolder('/g', [
        'pairwise.json',
        'a.jsonl',
        'b.CSV',
        'c.json',
        'd.eval',
        'e.txt',
        '.hidden.json',
      ]).units,
    ).toEqual([
      { path: '/g/a.jsonl', kind: 'file', files: ['/g/a.jsonl', '/g/pairwise.json'] },
      { path: '/g/b.CSV', kind: 'file', files: ['/g/b.CSV', '/g/pairwise.json'] },
      { path: '/g/c.json', kind: 'file', files: ['/g/c.json'] },
      { path: '/g/d.eval', kind: 'file', files: ['/g/d.eval'] },
    ]);
  });
});

describe('scanPaths', () => {
  it('walks folders, skipping dependency, VCS and hidden folders but not .mechlens', async () => {
    writeMechlensRun(path.join(dir, 'proj'));
    writeFile(dir, 'proj/node_modules/pkg/package.json', '{}');
    writeFile(dir, 'proj/.git/config.json', '{}');
    writeFile(dir, 'proj/.venv/x.json', '{}');
    writeFile(dir, 'proj/z.csv', 'id,input\n');
    writeFile(dir, 'proj/a.json', '{}');
    const { units, problems } = await scan([dir]);
    expect(problems).toEqual([]);
    expect(units.map((u) => rel(u.path))).toEqual([
      'proj/.mechlens/runs/run-0001.json',
      'proj/a.json',
      'proj/z.csv',
    ]);
  });

  it('does not look inside a REPS run folder, such as its workspace', async () => {
    const run = path.join(dir, 'runs/abc-exp/20260916t120000z-000000000000');
    writeFile(run, 'run.json', '{}');
    writeFile(run, 'events.jsonl', '{}\n');
    writeFile(run, 'workspace/out/results.json', '{}');
    const { units } = await scan([dir]);
    expect(units).toEqual([
      {
        path: run,
        kind: 'reps-run',
        files: [path.join(run, 'run.json'), path.join(run, 'events.jsonl')],
      },
    ]);
  });

  it('claims lm-eval samples files for their results file', async () => {
    const { results, samples } = writeLmEval(dir);
    const { units } = await scan([dir]);
    expect(units).toEqual([{ path: results, kind: 'lm-eval', files: [results, samples] }]);
  });

  it('survives a symbolic link loop and sees a doubly linked file once', async () => {
    writeFile(dir, 'a/run.json', '{}');
    fs.symlinkSync(dir, path.join(dir, 'a/loop'));
    fs.symlinkSync(path.join(dir, 'a/run.json'), path.join(dir, 'a/same.json'));
    const { units, problems } = await scan([dir]);
    expect(problems).toEqual([]);
    expect(units.map((u) => rel(u.path))).toEqual(['a/run.json']);
  });

  it('reports a broken link to a run file, and ignores one to anything else', async () => {
    fs.symlinkSync(path.join(dir, 'gone.json'), path.join(dir, 'dangling.json'));
    fs.symlinkSync(path.join(dir, 'gone.txt'), path.join(dir, 'dangling.txt'));
    const { problems } = await scan([dir]);
    expect(problems).toEqual([
      {
        path: path.join(dir, 'dangling.json'),
        message: expect.stringMatching(/^broken symbolic link: /),
      },
    ]);
  });

  it('accepts single files, grouping them with their siblings', async () => {
    const run = path.join(dir, 'r');
    writeFile(run, 'run.json', '{}');
    writeFile(run, 'events.jsonl.zst', '');
    const odd = writeFile(dir, 'notes.md', '# not a run');
    const { units } = await scan([path.join(run, 'run.json'), odd]);
    expect(units).toEqual([
      { path: odd, kind: 'file', files: [odd] },
      {
        path: run,
        kind: 'reps-run',
        files: [path.join(run, 'run.json'), path.join(run, 'events.jsonl.zst')],
      },
    ]);
  });

  it('reports a path that does not exist and keeps scanning the others', async () => {
    writeFile(dir, 'ok/a.json', '{}');
    const { units, problems } = await scan([path.join(dir, 'missing'), path.join(dir, 'ok')]);
    expect(units).toHaveLength(1);
    expect(problems).toEqual([
      { path: path.join(dir, 'missing'), message: 'not found: nothing exists at this path' },
    ]);
  });

  it('stops at the unit cap with a problem', async () => {
    for (let i = 0; i < 5; i++) writeFile(dir, `f${i}.json`, '{}');
    const { units, problems } = await scan([dir], 3);
    expect(units).toHaveLength(3);
    expect(problems[0]?.message).toMatch(/more than 3 run files/);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(scanPaths([dir], { signal: controller.signal })).rejects.toThrow();
  });
});
