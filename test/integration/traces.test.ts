import path from 'node:path';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { unpackTrace } from '../../electron/core/ingest/trace-pack';
import { evalSample, writeEvalLog } from '../fixtures/inspect';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

function samples(model: string, withEvents: boolean) {
  return [1, 2, 3].map((i) =>
    evalSample({
      id: `syc-00${i}`,
      output: `${model} answers ${i}`,
      events: withEvents
        ? [{ event: 'model', model, output: { completion: `${model} answers ${i}` } }]
        : [],
    }),
  );
}

describe('sample transcripts', () => {
  it('are stored per example, read for both sides of a pair, and replaced on re-index', async () => {
    harness = makeService();
    const { service } = harness;
    const dir = path.join(harness.dir, 'logs');
    fs.mkdirSync(dir, { recursive: true });
    const write = (withEvents: boolean) => {
      writeEvalLog(path.join(dir, '2025-05-13T00-28-13_popularity_a.eval'), 'finished', {
        model: 'openai/gpt-4o-mini',
        evalId: 'evalAAAAAAAAAAAAAAAAAA',
        samples: samples('openai/gpt-4o-mini', withEvents),
      });
      writeEvalLog(path.join(dir, '2025-05-13T00-30-13_popularity_b.eval'), 'finished', {
        model: 'openai/gpt-4o',
        evalId: 'evalBBBBBBBBBBBBBBBBBB',
        samples: samples('openai/gpt-4o', withEvents),
      });
    };
    write(true);
    await service.index([dir]);
    const { jobId } = service.handlers['compare:start']({
      experimentId: 'popularity',
      resamples: 200,
    }) as { jobId: string };
    await service.jobs.wait(jobId);
    const cached = service.handlers['compare:report']({
      experimentId: 'popularity',
      resamples: 200,
    }) as { key: string } | null;
    const traces = service.handlers['examples:trace']({
      reportKey: cached!.key,
      pair: 0,
      exampleId: 'syc-002',
    }) as Awaited<ReturnType<(typeof service.handlers)['examples:trace']>>;
    const texts = [traces.reference, traces.candidate].map((t) =>
      t!.flatMap((s) => s.steps.map((step) => step.text)),
    );
    expect(texts.flat()).toContain('openai/gpt-4o answers 2');
    expect(texts.flat()).toContain('openai/gpt-4o-mini answers 2');
    expect(texts.flat()).toContain('question syc-002');

    const stored = () =>
      (service.db.prepare(`SELECT COUNT(*) AS n FROM example_traces`).get() as { n: number }).n;
    expect(stored()).toBe(6);
    write(false);
    const later = new Date(Date.now() + 5_000);
    for (const f of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, f), later, later);
    await service.index([dir]);
    // Messages are still there; the events section is gone, and no old row is left behind.
    expect(stored()).toBe(6);
    const after = service.db.prepare(`SELECT trace FROM example_traces`).all() as {
      trace: Buffer;
    }[];
    expect(after.every((r) => !unpackTrace(r.trace).some((s) => s.title === 'Events'))).toBe(true);
  });
});
