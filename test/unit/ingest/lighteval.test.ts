import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importUnit } from '../../../electron/core/ingest/importers';
import {
  importLighteval,
  isLightevalDetailsName,
} from '../../../electron/core/ingest/importers/lighteval';
import {
  lightevalSamples,
  writeLightevalDetails,
  writeLightevalResults,
  writeOtherParquet,
} from '../../fixtures/lighteval';
import { importContext, importProblem } from '../../fixtures/import';
import { tempDir } from '../../fixtures/tmp';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const TASK = 'lighteval|gsm8k|0';

describe('lighteval details files', () => {
  it('are recognised by their name only', () => {
    expect(
      isLightevalDetailsName('details_lighteval|gsm8k|0_2025-06-01T10-00-00.000001.parquet'),
    ).toBe(true);
    expect(isLightevalDetailsName('examples.parquet')).toBe(false);
    expect(isLightevalDetailsName('details_x.parquet')).toBe(false);
  });

  it('v2 (doc, model_response, metric): ids, answers, golds and scores', async () => {
    const file = await writeLightevalDetails(path.join(dir, 'out'), {
      model: 'org/model-a',
      task: TASK,
      layout: 'v2',
      samples: lightevalSamples(6),
    });
    const run = await importLighteval(file, importContext());
    expect(run).toMatchObject({
      format: 'lighteval',
      formatVersion: 'details v2',
      project: 'out',
      experiment: { id: `lighteval:${TASK}`, name: TASK },
      condition: { name: 'org/model-a' },
      settings: { model: { id: 'org/model-a' }, dataset: { task: TASK } },
      metrics: { em: 4 / 6 },
      metricDefinitions: { em: { example_field: 'em', direction: null } },
      provenance: { date_id: '2025-06-01T10-00-00.000001' },
    });
    expect(run.examples[0]).toEqual({
      id: '0',
      input: 'Question 0: what is 0 + 0?',
      output: '1',
      target: '0',
      error: null,
      fields: { em: 0, gold_index: [0] },
    });
    expect(run.examples.map((e) => e.id)).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('a sample scored by its choices answers with the most likely choice', async () => {
    const file = await writeLightevalDetails(dir, {
      model: 'm',
      task: 'lighteval|arc|0',
      layout: 'v2',
      samples: lightevalSamples(3, 1, false),
    });
    const run = await importLighteval(file, importContext());
    expect(run.examples.map((e) => [e.output, e.fields])).toEqual([
      ['0', { acc: 1, acc_norm: true, gold_index: [0] }],
      ['2', { acc: 1, acc_norm: true, gold_index: [0] }],
      ['5', { acc: 0, acc_norm: false, gold_index: [0] }],
    ]);
  });

  it('v1 (example, predictions, metrics) keeps no id: the query pairs samples, repeats numbered', async () => {
    const samples = [...lightevalSamples(3), ...lightevalSamples(1)];
    const a = await writeLightevalDetails(dir, { model: 'a', task: TASK, layout: 'v1', samples });
    const b = await writeLightevalDetails(dir, {
      model: 'b',
      task: TASK,
      layout: 'v1',
      samples: [...lightevalSamples(3, 1)].reverse(),
    });
    const [runA, runB] = await Promise.all([a, b].map((f) => importLighteval(f, importContext())));
    expect(runA!.formatVersion).toBe('details v1');
    const idsA = runA!.examples.map((e) => e.id);
    expect(idsA[3]).toBe(`${idsA[0]}~2`);
    expect(new Set(runB!.examples.map((e) => e.id))).toEqual(new Set(idsA.slice(0, 3)));
    expect(runA!.examples[0]).toMatchObject({ output: '1', target: '0', fields: { em: 0 } });
  });

  it('a damaged or foreign file is a problem of this file, tagged lighteval', async () => {
    const good = await writeLightevalDetails(dir, {
      model: 'm',
      task: TASK,
      layout: 'v2',
      samples: lightevalSamples(2),
    });
    const broken = path.join(path.dirname(good), 'details_x|y|0_2025-06-01T10-00-00.parquet');
    fs.writeFileSync(broken, fs.readFileSync(good).subarray(0, 200));
    const unit = (p: string) => ({ path: p, kind: 'file' as const, files: [p] });
    const problem = await importProblem(importUnit(unit(broken), importContext()));
    expect(problem.importer).toBe('lighteval');
    expect(problem.message).toMatch(/not a readable Parquet file/);

    await writeOtherParquet(path.join(dir, 'examples.parquet'));
    const foreign = path.join(path.dirname(good), 'details_other|t|0_2025-06-01T10-00-00.parquet');
    fs.copyFileSync(path.join(dir, 'examples.parquet'), foreign);
    expect((await importProblem(importUnit(unit(foreign), importContext()))).message).toMatch(
      /no lighteval details columns .*found run_id, example_id/,
    );
    expect(await importUnit(unit(path.join(dir, 'examples.parquet')), importContext())).toEqual({
      status: 'skipped',
    });
    expect(await importUnit(unit(good), importContext())).toMatchObject({ status: 'imported' });
  });

  describe('metric directions from results_<date>.json beside the details', () => {
    const CHOICE_TASK = 'leaderboard|arc|25';
    const write = (model: string) =>
      writeLightevalDetails(path.join(dir, 'out'), {
        model,
        task: CHOICE_TASK,
        layout: 'v2',
        samples: lightevalSamples(4, 0, false),
      });

    it('a single metric or a group, per name; one not described has none', async () => {
      const file = await write('org/model-a');
      writeLightevalResults(path.join(dir, 'out'), {
        model: 'org/model-a',
        configTasks: {
          // Keyed without the few-shot count, as some lighteval versions write it.
          'leaderboard|arc': {
            name: 'arc',
            metrics: [
              { metric_name: 'acc', higher_is_better: true, category: 'MULTICHOICE' },
              { metric_name: ['loss', 'other'], higher_is_better: { loss: false, other: true } },
            ],
          },
          'leaderboard|mmlu|5': { metrics: [{ metric_name: 'acc_norm', higher_is_better: false }] },
        },
      });
      const run = await importLighteval(file, importContext());
      expect(run.metricDefinitions).toMatchObject({
        acc: { direction: 'higher_is_better' },
        acc_norm: { direction: null },
      });
      expect(run.warnings).toEqual([
        expect.stringMatching(/results_<date>\.json gives no direction for acc_norm$/),
      ]);
    });

    it('older files (`metric`, names only), a broken file or none: no direction', async () => {
      const file = await write('m');
      const results = { model: 'm' };
      const none = await importLighteval(file, importContext());
      writeLightevalResults(path.join(dir, 'out'), {
        ...results,
        configTasks: { [CHOICE_TASK]: { metric: ['acc', 'acc_norm'] } },
      });
      const namesOnly = await importLighteval(file, importContext());
      writeLightevalResults(path.join(dir, 'out'), {
        ...results,
        configTasks: '{"config_tasks": ',
      });
      const broken = await importLighteval(file, importContext());
      for (const run of [none, namesOnly, broken]) {
        expect(Object.values(run.metricDefinitions).map((d) => d.direction)).toEqual([null, null]);
        expect(run.warnings[0]).toMatch(/no metric says whether higher is better/);
      }
      writeLightevalResults(path.join(dir, 'out'), {
        ...results,
        configTasks: {
          [CHOICE_TASK]: {
            metrics: [
              { metric_name: 'acc', higher_is_better: true },
              { metric_name: 'acc_norm', higher_is_better: true },
            ],
          },
        },
      });
      const all = await importLighteval(file, importContext());
      expect(all.warnings[0]).toMatch(/their directions are those results_<date>\.json gives$/);
    });
  });
});
