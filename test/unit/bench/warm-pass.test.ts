import { describe, expect, it } from 'vitest';
import type { IndexResult } from '../../bench/phase-index';
import type { BenchResults, LibraryResult } from '../../bench/results';
import { buildRows } from '../../bench/rows';
import { SPECS } from '../../bench/specs';

function index(over: Partial<IndexResult>): IndexResult {
  return {
    seconds: 1,
    runs: 20,
    examples: 20_000,
    imported: 20,
    failed: 0,
    problems: [],
    writerSeconds: 0.1,
    lockSeconds: 0.05,
    commitSeconds: 0.01,
    cpuSeconds: 1.6,
    mainThreadBusy: 0.1,
    blockedSeconds: 0.02,
    peakRss: { sampled: 2e8, kernel: 2e8, samples: 10 },
    searchReadySeconds: 0.5,
    rescanSeconds: 0.004,
    rescanUnchanged: 20,
    dbBytes: 12e6,
    closeSeconds: 0.01,
    ...over,
  };
}

function results(idx: IndexResult): BenchResults {
  const small: LibraryResult = {
    spec: SPECS.small,
    bytes: 18e6,
    examples: 20_000,
    files: 20,
    generateSeconds: 1,
    errors: [],
    phases: [],
    baseline: {
      seconds: 0.25,
      bytes: 18e6,
      examples: 20_000,
      failures: [],
      peakRss: { sampled: 1e8, kernel: 1e8, samples: 3 },
    },
    index: idx,
  };
  return {
    date: '2026-12-02T10:00:00Z',
    sizes: ['small'],
    machine: {} as BenchResults['machine'],
    explorerUi: false,
    libraries: { small },
    totalSeconds: 10,
    code: { start: {} as BenchResults['code']['start'], end: null },
  };
}

describe('the second, warm pass of a small library in the results table', () => {
  it('gets a row of its own, and the speed ratio says what starting the threads cost', () => {
    const warm = { seconds: 0.25, cpuSeconds: 0.4, examples: 20_000, failed: 0 };
    const { rows } = buildRows(results(index({ warm })));
    const warmRow = rows.find((r) => r.what.includes('index workers already up'));
    expect(warmRow?.result).toContain('1.00× JSON.parse speed, CPU 400 ms');
    const ratio = rows.find((r) => r.what === 'indexing speed ÷ JSON.parse speed');
    expect(ratio?.met).toBe('no');
    expect(ratio?.why).toContain('a second folder alike took 250 ms and 400 ms of CPU');
    expect(ratio?.why).toContain('against 1.00 s and 1.60 s');
  });

  it('is left out, and so is its sentence, when the run had none or it failed', () => {
    for (const idx of [
      index({}),
      index({ warm: { seconds: 0.2, cpuSeconds: 0.3, examples: 0, failed: 20 } }),
    ]) {
      const { rows } = buildRows(results(idx));
      const ratio = rows.find((r) => r.what === 'indexing speed ÷ JSON.parse speed');
      expect(ratio?.why).not.toContain('second folder');
    }
    const failed = buildRows(
      results(index({ warm: { seconds: 0.2, cpuSeconds: 0.3, examples: 0, failed: 20 } })),
    ).rows.find((r) => r.what.includes('index workers already up'));
    expect(failed?.result).toBe('20 files failed');
  });
});
