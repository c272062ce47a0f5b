import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ComparisonRunner, type IdleTimer } from '../../electron/core/compare/runner';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
let runner: ComparisonRunner | null = null;
afterEach(async () => {
  await runner?.close();
  runner = null;
  await harness?.close();
  harness = null;
});

/** An idle timer the test fires by hand: no waiting, and no wall time in any assertion. */
function manualTimer() {
  const waits: { ms: number; fn: () => void; done: boolean }[] = [];
  const timer: IdleTimer = (fn, ms) => {
    const wait = { ms, fn, done: false };
    waits.push(wait);
    return () => {
      wait.done = true;
    };
  };
  const armed = () => waits.filter((w) => !w.done);
  /** The idle time has passed. */
  const elapse = () => {
    for (const wait of armed()) {
      wait.done = true;
      wait.fn();
    }
  };
  return { timer, waits, armed, elapse };
}

async function library(): Promise<Harness> {
  const h = makeService();
  const root = path.join(h.dir, 'lib');
  writeMechlensRun(root, { id: 'ref', name: 'reference', examples: examples(40) });
  writeMechlensRun(root, {
    id: 'steer',
    name: 'steer',
    experiment: { id: 'exp-test', role: 'intervention' },
    examples: examples(42, (i) => ({ refused: i % 3 === 0, score: (i % 4) + 1 })).map((e, i) =>
      i % 5 === 0 ? { ...e, output: `${e.output} (steered)` } : e,
    ),
  });
  await h.service.index([root]);
  return h;
}

describe('idle compare workers', () => {
  it('let their kept tables go after the idle time, and the next comparison gives the same report', async () => {
    harness = await library();
    const { service } = harness;
    const clock = manualTimer();
    runner = new ComparisonRunner(
      service.db,
      path.join(harness.dir, 'pairwise.db'),
      service.jobs,
      service.events,
      { idleMs: 1234, idleTimer: clock.timer },
    );
    const settings = { experimentId: 'exp-test', resamples: 300 };

    await runner.run({ ...settings, resamples: 200 });
    expect(runner.workers).toBe(1);
    expect(clock.armed().map((w) => w.ms)).toEqual([1234]);
    // Another setting on the same runs: the worker's kept tables are used, and the wait restarts.
    const warm = await runner.run(settings);
    expect(clock.waits).toHaveLength(2);
    expect(clock.armed()).toHaveLength(1);

    clock.elapse();
    expect(runner.workers).toBe(0);

    // Asked again (its cached report dropped), the comparison starts a worker that reads the runs.
    service.db.prepare(`DELETE FROM reports WHERE key = ?`).run(warm.key);
    const cold = await runner.run(settings);
    expect(runner.workers).toBe(1);
    expect(cold.key).toBe(warm.key);
    expect(cold.report).toEqual(warm.report);
    expect(clock.armed()).toHaveLength(1);
  });

  it('stop waiting while a comparison runs, and wait two minutes by default', async () => {
    harness = await library();
    const { service } = harness;
    const clock = manualTimer();
    runner = new ComparisonRunner(
      service.db,
      path.join(harness.dir, 'pairwise.db'),
      service.jobs,
      service.events,
      { idleTimer: clock.timer },
    );
    await runner.run({ experimentId: 'exp-test', resamples: 200 });
    const first = clock.armed()[0]!;
    await runner.run({ experimentId: 'exp-test', resamples: 300 });
    expect(first.done).toBe(true);
    expect(clock.armed().map((w) => w.ms)).toEqual([120_000]);
    expect(runner.workers).toBe(1);
    // A comparison answered from the library's cache needs no worker and starts no wait.
    await runner.run({ experimentId: 'exp-test', resamples: 300 });
    expect(clock.waits).toHaveLength(2);
  });
});
