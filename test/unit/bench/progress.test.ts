import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeProgress, progressLine } from '../../../electron/cli/progress-line';
import { generateLibrary } from '../../bench/generate';
import { BenchProgress, isProgressMessage } from '../../bench/progress';
import type { JobProgress } from '../../../shared/jobs';
import { textSink } from '../../fixtures/sink';

describe('a progress line', () => {
  it('shows bytes when the pass knows them, with a bar, a percentage and the time so far', () => {
    const progress: JobProgress = {
      phase: 'reading',
      done: 1,
      total: 4,
      bytes: 50e6,
      totalBytes: 200e6,
    };
    expect(progressLine('Indexing', progress, 65)).toBe(
      `Indexing [${'█'.repeat(6)}${'░'.repeat(18)}] 25% · 50/200 MB · reading · 1m05s`,
    );
  });

  it('shows items when there are no bytes, with thousands separated', () => {
    expect(describeProgress({ phase: 'writing', done: 1500, total: 6000 })).toEqual({
      share: 0.25,
      text: '1,500/6,000 · writing',
    });
  });

  it('shows no bar, never a stuck 0 %, while the total is unknown', () => {
    expect(progressLine('pair100k index', null, 3)).toBe('pair100k index · starting · 3s');
    expect(progressLine('x', { phase: 'waiting', done: 0, total: null }, 0)).toBe(
      'x · waiting · 0s',
    );
    expect(progressLine('x', { phase: 'scanning', done: 12, total: null }, 0)).toBe(
      'x · 12 · scanning · 0s',
    );
  });

  it('caps a share past the total at 100 %', () => {
    expect(describeProgress({ phase: 'p', done: 5, total: 4 }).share).toBe(1);
  });
});

describe('the benchmark display', () => {
  afterEach(() => vi.restoreAllMocks());

  it('draws nothing and logs plain lines when stderr is not a terminal', () => {
    const out = textSink();
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
    const display = new BenchProgress({ enabled: false, stream: out.stream });
    const step = display.step('small index');
    step.update({ phase: 'reading', done: 1, total: 2 });
    display.log('[bench] small: done');
    step.stop();
    display.stop();
    expect(out.text()).toBe('');
    expect(lines).toEqual(['[bench] small: done']);
  });

  it('draws a step as it moves when enabled', () => {
    const out = textSink();
    const display = new BenchProgress({ enabled: true, stream: out.stream });
    const step = display.step('small baseline');
    step.update({ phase: 'JSON.parse', done: 3, total: 4 });
    step.stop();
    expect(out.text()).toMatch(/small baseline \[█+░+\] 75% · 3\/4 · JSON\.parse · \d+s/);
  });

  it('knows the messages a phase child sends', () => {
    expect(isProgressMessage({ type: 'bench:progress', progress: {} })).toBe(true);
    expect(isProgressMessage({ type: 'other' })).toBe(false);
    expect(isProgressMessage(null)).toBe(false);
  });
});

describe('generating a benchmark library', () => {
  it('reports how many example rows are written, up to all of them', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-progress-'));
    try {
      const reports: JobProgress[] = [];
      const spec = {
        name: 'tiny',
        experiments: 2,
        runsPerExperiment: 2,
        examples: 300,
        inputChars: 20,
        outputChars: 20,
      };
      const library = generateLibrary(
        spec,
        root,
        () => undefined,
        (p) => reports.push(p),
      );
      const done = reports.map((p) => p.done);
      expect(done).toEqual([...done].sort((a, b) => a - b));
      expect(reports.at(-1)).toMatchObject({ done: library.examples, total: library.examples });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
