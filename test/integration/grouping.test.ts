import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PairwiseService } from '../../electron/core/service';
import { examples, writeMechlensRun } from '../fixtures/formats';
import { makeService, type Harness } from '../fixtures/service';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

const long =
  'hf/google/gemma-2-2b-it steering.feature_id=4521 steering.sae_id=gemma-scope-2b-pt-res-canonical/layer_20/width_16k/canonical';

/** A reference at temperature 0, an intervention and a control both at 0.7. */
function library(root: string): string {
  const run = (id: string, name: string, role: string, temperature: number, at: string) =>
    writeMechlensRun(root, {
      id,
      name,
      experiment: { id: 'exp-group', role },
      examples: examples(6),
      extra: {
        generation: { max_new_tokens: 64, temperature },
        started_at: at,
        finished_at: at,
      },
    });
  run('run-ref', 'baseline', 'reference', 0, '2026-09-14T09:00:00Z');
  run('run-steer', long, 'intervention', 0.7, '2026-09-14T10:00:00Z');
  run('run-random', 'steer-random-feature', 'unknown', 0.7, '2026-09-14T11:00:00Z');
  return root;
}

async function indexed(): Promise<PairwiseService> {
  harness = makeService();
  await harness.service.index([library(path.join(harness.dir, 'lib'))]);
  return harness.service;
}

function conditions(service: PairwiseService) {
  return (
    service.handlers['conditions:list']({ experimentId: 'exp-group' }) as {
      name: string;
      role: string;
      runs: { run_id: string; superseded: boolean }[];
    }[]
  ).map((c) => ({
    name: c.name,
    role: c.role,
    runs: c.runs.map((r) => r.run_id + (r.superseded ? ' (superseded)' : '')),
  }));
}

describe('group runs by a settings field', () => {
  it('previews the moves without changing anything', async () => {
    const service = await indexed();
    const before = conditions(service);
    const plan = await service.handlers['runs:groupPreview']({
      experimentId: 'exp-group',
      field: 'generation.temperature',
    });
    expect(plan.changes).toBe(3);
    expect(plan.moves.find((m) => m.runId === 'run-steer')).toMatchObject({
      from: long,
      role: 'intervention',
    });
    expect(conditions(service)).toEqual(before);
  });

  it('keeps hand-set roles, keeps a control apart, and never marks a grouped run superseded', async () => {
    const service = await indexed();
    await service.handlers['conditions:setRole']({
      experimentId: 'exp-group',
      condition: 'steer-random-feature',
      role: 'control',
    });
    await service.handlers['runs:groupBy']({
      experimentId: 'exp-group',
      field: 'generation.temperature',
    });
    expect(conditions(service)).toEqual([
      { name: 'generation.temperature=0', role: 'reference', runs: ['run-ref'] },
      {
        name: 'generation.temperature=0.7 (intervention)',
        role: 'intervention',
        runs: ['run-steer'],
      },
      { name: 'generation.temperature=0.7 (control)', role: 'control', runs: ['run-random'] },
    ]);
  });

  it('keeps a reference chosen by hand on the run it was chosen for', async () => {
    const service = await indexed();
    await service.handlers['conditions:setRole']({
      experimentId: 'exp-group',
      condition: 'steer-random-feature',
      role: 'reference',
    });
    await service.handlers['runs:groupBy']({
      experimentId: 'exp-group',
      field: 'config.seed',
    });
    const list = conditions(service);
    const reference = list.find((c) => c.role === 'reference');
    expect(reference?.runs).toEqual(['run-random']);
    expect(list.find((c) => c.runs.includes('run-steer'))?.role).toBe('intervention');
    expect(list.flatMap((c) => c.runs).some((r) => r.includes('superseded'))).toBe(false);
  });

  it('undoes one grouping after a reload, and a rescan does not bring it back', async () => {
    const service = await indexed();
    await service.handlers['conditions:setRole']({
      experimentId: 'exp-group',
      condition: 'steer-random-feature',
      role: 'control',
    });
    const before = conditions(service);
    await service.handlers['runs:groupBy']({
      experimentId: 'exp-group',
      field: 'generation.temperature',
    });
    const dbPath = path.join(harness!.dir, 'pairwise.db');
    await service.close();
    const reopened = new PairwiseService({
      dbPath,
      host: 'cli',
      version: '0.0.0-test',
      watch: false,
      indexWorkers: 1,
    });
    try {
      expect(reopened.handlers['runs:lastGrouping']({ experimentId: 'exp-group' })).toMatchObject({
        field: 'generation.temperature',
      });
      expect(reopened.handlers['runs:groupUndo']({ experimentId: 'exp-group' })).toEqual({
        undone: true,
      });
      expect(conditions(reopened)).toEqual(before);
      expect(reopened.handlers['runs:lastGrouping']({ experimentId: 'exp-group' })).toBeNull();
      expect(reopened.handlers['runs:groupUndo']({ experimentId: 'exp-group' })).toEqual({
        undone: false,
      });
      await reopened.index([path.join(harness!.dir, 'lib')]);
      expect(conditions(reopened)).toEqual(before);
    } finally {
      await reopened.close();
      harness = { dir: harness!.dir, service: reopened, close: async () => undefined };
    }
  });
});

describe('declared series', () => {
  it('is kept per condition and reaches the comparison', async () => {
    const service = await indexed();
    await service.handlers['conditions:setSeries']({
      experimentId: 'exp-group',
      condition: long,
      series: 'steering strength',
      level: 4,
    });
    const row = (
      service.handlers['conditions:list']({ experimentId: 'exp-group' }) as {
        name: string;
        series: string | null;
        level: number | null;
      }[]
    ).find((c) => c.name === long);
    expect(row).toMatchObject({ series: 'steering strength', level: 4 });
    await service.index([path.join(harness!.dir, 'lib')]);
    const { jobId } = service.handlers['compare:start']({ experimentId: 'exp-group' }) as {
      jobId: string;
    };
    await service.jobs.wait(jobId);
    const cached = service.handlers['compare:report']({ experimentId: 'exp-group' }) as {
      report: { series: { name: string; points: { condition: string; level: number | null }[] }[] };
    } | null;
    const curve = cached?.report.series.find((s) => s.name === 'steering strength');
    expect(curve?.points.map((p) => [p.condition, p.level])).toContainEqual([long, 4]);
  });
});
